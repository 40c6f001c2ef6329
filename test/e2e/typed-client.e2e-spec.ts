import { createCampaignCallingClient } from '../../clients/typescript/src/index.js';
import { createTestApp, TestApp, waitFor } from '../support/test-app.js';

/**
 * The generated client (clients/typescript, from the committed openapi.json) drives one full flow over
 * real HTTP: what an integrator generating from the document gets must work as typed.
 */
describe('typed client (clients/typescript)', () => {
  let t: TestApp;
  let baseUrl: string;
  let apiKey: string;

  beforeAll(async () => {
    t = await createTestApp();
    await t.app.listen(0, '127.0.0.1');
    baseUrl = (await t.app.getUrl()).replace('[::1]', '127.0.0.1');
    ({ apiKey } = await t.createOrganization());
  });
  afterAll(() => t?.close());

  it('creates a campaign, adds targets, triggers calls, reads a target and its call logs', async () => {
    const client = createCampaignCallingClient({ baseUrl, apiKey });

    const campaign = await client.POST('/api/v1/campaigns', {
      body: { name: 'Typed client', type: 'patient', max_attempts: 1 },
    });
    expect(campaign.response.status).toBe(201);
    const campaignId = campaign.data!.id;

    const added = await client.POST('/api/v1/campaigns/{campaign_id}/targets', {
      params: { path: { campaign_id: campaignId } },
      body: {
        targets: [
          { phone_number: '+15550100001', external_id: 'T-1', input_data: { clinic: 'North' } },
          { phone_number: { value: '+15550100002' }, external_id: 'T-2' },
        ],
      },
    });
    // Field by field: the target ids are generated, their number is what is known.
    expect([
      added.data?.created,
      added.data?.ignored.length,
      added.data?.target_ids.length,
    ]).toEqual([2, 0, 2]);
    const [targetId] = added.data!.target_ids;

    const triggered = await client.POST('/api/v1/campaigns/{campaign_id}/calls', {
      params: { path: { campaign_id: campaignId } },
      body: { target_ids: [targetId] },
    });
    expect([triggered.data?.scheduled[0], triggered.data?.skipped.length]).toEqual([targetId, 0]);

    const finished = await waitFor(
      () =>
        client.GET('/api/v1/targets/{target_id}', {
          params: { path: { target_id: targetId } },
        }),
      (res) => res.data?.status === 'Finished',
      60_000,
    );
    expect(finished.data).toMatchObject({
      id: targetId,
      campaign_id: campaignId,
      external_id: 'T-1',
      input_data: { clinic: 'North' },
      status: 'Finished',
    });
    expect(finished.data!.call_log_ids).toHaveLength(1);

    const logs = await client.GET('/api/v1/call-logs', {
      params: { query: { campaign_id: campaignId, limit: 10 } },
    });
    expect(logs.data!.call_logs.map((log) => log.campaign_target_id)).toEqual([targetId]);
    const log = await client.GET('/api/v1/call-logs/{call_log_id}', {
      params: {
        path: { call_log_id: finished.data!.call_log_ids![0] },
        query: { include_recordings: true },
      },
    });
    expect(log.data).toMatchObject({ id: String(finished.data!.call_log_ids![0]) });

    const invalid = await client.GET('/api/v1/campaigns/{campaign_id}/targets', {
      params: { path: { campaign_id: campaignId }, query: { limit: 0 } },
    });
    expect(invalid.response.status).toBe(422);
    expect(invalid.error?.detail?.[0]).toMatchObject({ type: 'greater_than_equal' });
  });
});
