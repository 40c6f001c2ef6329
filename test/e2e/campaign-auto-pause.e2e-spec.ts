import { createTestApp, TestApp, waitFor } from '../support/test-app.js';
import { WebhookReceivers } from '../support/webhook-receiver.js';

/** Issue 12, the circuit breaker (`auto_pause`), on the real database. */

const ISO = expect.stringMatching(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);
/** Numbers ending 0003: the simulator ends the call TECHNICAL_FAILURE (simulated-call-provider.ts). */
const FAILING = (i: number) => `+1557${String(1_000 + i)}0003`;

describe('campaign auto_pause (circuit breaker)', () => {
  let t: TestApp;
  const receivers = new WebhookReceivers();

  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(async () => {
    await receivers.closeAll();
    await t?.close();
  });

  const as = (apiKey: string) => ({
    post: (path: string, body: object = {}) =>
      t.http().post(path).set('X-API-Key', apiKey).send(body),
    patch: (path: string, body: object) => t.http().patch(path).set('X-API-Key', apiKey).send(body),
    get: (path: string) => t.http().get(path).set('X-API-Key', apiKey),
  });

  it('validates the setting at its fields, with pydantic wording', async () => {
    const { apiKey } = await t.createOrganization();
    const res = await as(apiKey).post('/api/v1/campaigns', {
      name: 'bad',
      type: 'patient',
      auto_pause: { window: 0, max_failure_ratio: 0 },
    });
    expect(res.status).toBe(422);
    expect(res.body).toEqual({
      detail: [
        {
          type: 'greater_than_equal',
          loc: ['body', 'auto_pause', 'window'],
          msg: 'Input should be greater than or equal to 1',
          input: 0,
          ctx: { ge: 1 },
        },
        {
          type: 'greater_than',
          loc: ['body', 'auto_pause', 'max_failure_ratio'],
          msg: 'Input should be greater than 0',
          input: 0,
          ctx: { gt: 0 },
        },
      ],
    });
    const c = await t.createCampaign(apiKey);
    expect(c).toMatchObject({ auto_pause: null, paused_reason: null });
    const tooBig = await as(apiKey).patch(`/api/v1/campaigns/${c.id}`, {
      auto_pause: { window: 1001, max_failure_ratio: 1.5 },
    });
    expect(tooBig.status).toBe(422);
    expect(tooBig.body).toEqual({
      detail: [
        {
          type: 'less_than_equal',
          loc: ['body', 'auto_pause', 'window'],
          msg: 'Input should be less than or equal to 1000',
          input: 1001,
          ctx: { le: 1000 },
        },
        {
          type: 'less_than_equal',
          loc: ['body', 'auto_pause', 'max_failure_ratio'],
          msg: 'Input should be less than or equal to 1',
          input: 1.5,
          ctx: { le: 1 },
        },
      ],
    });
    const set = await as(apiKey).patch(`/api/v1/campaigns/${c.id}`, {
      auto_pause: { window: 20, max_failure_ratio: 0.5 },
    });
    expect(set.status).toBe(200);
    expect(set.body.auto_pause).toEqual({ window: 20, max_failure_ratio: 0.5 });
    const off = await as(apiKey).patch(`/api/v1/campaigns/${c.id}`, { auto_pause: null });
    expect(off.body.auto_pause).toBeNull();
  });

  it('pauses a campaign whose calls fail technically, sends campaign.paused, starts no call after; resume works', async () => {
    const receiver = await receivers.start();
    const { apiKey } = await t.createOrganization();
    const api = as(apiKey);
    const c = await t.createCampaign(apiKey, {
      max_attempts: 1,
      max_concurrent_calls: 2,
      webhook_url: receiver.url,
      auto_pause: { window: 4, max_failure_ratio: 0.5 },
    });
    const added = await api.post(`/api/v1/campaigns/${c.id}/targets`, {
      targets: Array.from({ length: 12 }, (_, i) => ({ phone_number: FAILING(i) })),
    });
    expect(added.status).toBe(200);
    expect((await api.post(`/api/v1/campaigns/${c.id}/calls`, { count: 12 })).status).toBe(200);

    const paused = await waitFor(
      async () => (await api.get(`/api/v1/campaigns/${c.id}`)).body,
      (body) => body.state === 'paused',
      30_000,
    );
    expect(paused.paused_reason).toMatch(
      /^auto_pause: [34] of the last 4 calls ended TECHNICAL_FAILURE \(max_failure_ratio 0\.5\)$/,
    );

    const hooks = await waitFor(
      async () =>
        receiver.received
          .map((r) => JSON.parse(r.body))
          .filter((b: { type: string }) => b.type === 'campaign.paused'),
      (found) => found.length === 1,
    );
    expect(hooks).toEqual([
      {
        type: 'campaign.paused',
        campaign_id: c.id,
        reason: paused.paused_reason,
        failure_ratio: expect.any(Number),
        window: 4,
        paused_at: paused.state_changed_at,
      },
    ]);
    expect(hooks[0].failure_ratio).toBeGreaterThan(0.5);
    expect(paused.state_changed_at).toEqual(ISO);

    // In-flight calls end; no call has started after the pause.
    const logs = () =>
      t.sql<{ started_at: Date; ended_at: Date | null }>(
        `SELECT started_at, ended_at FROM call_logs WHERE campaign_id = $1`,
        [c.id],
      );
    const settled = await waitFor(logs, (rows) => rows.every((r) => r.ended_at !== null), 30_000);
    const pausedAt = Date.parse(paused.state_changed_at);
    expect(settled.filter((r) => r.started_at.getTime() > pausedAt)).toEqual([]);
    expect(settled.length).toBeLessThan(12);

    const resumed = await api.post(`/api/v1/campaigns/${c.id}/resume`);
    expect(resumed.status).toBe(200);
    expect(resumed.body).toMatchObject({ state: 'active', paused_reason: null });
    // Resume starts a fresh window: calls start again.
    await waitFor(logs, (rows) => rows.length > settled.length, 30_000);
  }, 120_000);
});
