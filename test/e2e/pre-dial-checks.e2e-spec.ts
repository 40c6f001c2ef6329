import { PreDialCall, PreDialCheck, PreDialVerdict } from '../../src/index.js';
import { createTestApp, TestApp, waitFor } from '../support/test-app.js';

/** A consent service as a team would plug in: numbers it refuses, numbers it holds until a time. */
class ConsentCheck extends PreDialCheck {
  readonly name = 'consent';
  readonly refused = new Set<string>();
  readonly pending = new Map<string, Date>();
  readonly asked: PreDialCall[] = [];

  async check(calls: PreDialCall[]): Promise<PreDialVerdict[]> {
    this.asked.push(...calls);
    return calls.map((call) => {
      if (this.refused.has(call.to)) return { action: 'refuse', reason: 'no consent on file' };
      const until = this.pending.get(call.to);
      if (until) return { action: 'defer', until, reason: 'consent requested by text' };
      return { action: 'call' };
    });
  }
}

describe('pre-dial checks (CampaignCallingModule.forRoot({ preDialChecks }))', () => {
  let t: TestApp;
  const consent = new ConsentCheck();

  beforeAll(async () => {
    t = await createTestApp({ module: { preDialChecks: [consent] } });
  });
  afterAll(async () => {
    await t?.close();
  });

  const read = async (apiKey: string, id: string) =>
    (await t.http().get(`/api/v1/targets/${id}`).set('X-API-Key', apiKey)).body;
  const timeline = async (apiKey: string, id: string) =>
    (await t.http().get(`/api/v1/targets/${id}/events`).set('X-API-Key', apiKey)).body;

  it('defers a call the check holds, refuses one it refuses, and lets the others be called', async () => {
    const { apiKey } = await t.createOrganization();
    const campaign = await t.createCampaign(apiKey, { max_attempts: 1 });
    const until = new Date(Date.now() + 3 * 3600_000);
    until.setUTCMilliseconds(0);
    consent.refused.add('+15550107001');
    consent.pending.set('+15550107002', until);
    const [refused, deferred, called] = await t.addTargets(apiKey, campaign.id, {
      targets: [
        { phone_number: '+15550107001' },
        { phone_number: '+15550107002' },
        { phone_number: '+15550107003' },
      ],
      launch: true,
    });

    const ended = await waitFor(
      () => read(apiKey, refused),
      (x) => x.status === 'Failed',
    );
    expect(ended).toMatchObject({
      status: 'Failed',
      resolution: expect.any(String),
      waiting_reason: null,
    });
    expect(
      await t.sql(`SELECT count(*)::int AS n FROM call_logs WHERE target_id = $1`, [refused]),
    ).toEqual([{ n: 0 }]);
    const endedEvents = await timeline(apiKey, refused);
    expect(endedEvents.items).toContainEqual(
      expect.objectContaining({
        status: 'Failed',
        actor: { type: 'worker', id: null },
        reason: 'ended without a call: Refused by a pre-dial check: consent: no consent on file',
      }),
    );

    const held = await waitFor(
      () => read(apiKey, deferred),
      (x) => x.waiting_reason === 'consent: consent requested by text',
    );
    expect(held).toMatchObject({
      status: 'Scheduled',
      scheduled_time: until.toISOString(),
    });
    expect(
      await t.sql(`SELECT count(*)::int AS n FROM call_logs WHERE target_id = $1`, [deferred]),
    ).toEqual([{ n: 0 }]);
    const heldEvents = await timeline(apiKey, deferred);
    expect(heldEvents.items).toContainEqual(
      expect.objectContaining({
        kind: 'deferred',
        actor: { type: 'worker', id: null },
        reason: 'consent: consent requested by text',
        data: { scheduled_time: until.toISOString() },
      }),
    );
    const stats = await t
      .http()
      .get(`/api/v1/campaigns/${campaign.id}/stats`)
      .set('X-API-Key', apiKey);
    expect(stats.body.held_by_rule).toEqual({ consent: 1 });

    await waitFor(
      () => read(apiKey, called),
      (x) => x.status === 'Finished',
    );
    expect(consent.asked).toEqual(
      expect.arrayContaining([
        {
          organizationId: campaign.organization_id,
          campaignId: campaign.id,
          targetId: called,
          to: '+15550107003',
          attempt: 1,
          inputData: {},
        },
      ]),
    );
  });
});
