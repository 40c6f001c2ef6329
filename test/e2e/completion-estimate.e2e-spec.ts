import { Clock } from '../../src/common/clock/clock.js';
import { FakeClock } from '../../src/testing/fake-clock.js';
import { createTestApp, TestApp, waitFor } from '../support/test-app.js';

/**
 * The stats' estimated end on a real database: never before the last remaining target may be
 * called. The clock is set to a Monday at 18:55Z; patients in Chicago (12:55 there) are held by quiet
 * hours until 14:00 there, 20:00Z, while those in Berlin (19:55 there) are called at once.
 */
describe('the estimated end of a campaign', () => {
  let t: TestApp;
  const clock = new FakeClock('2026-01-05T18:55:00.000Z');

  beforeAll(async () => {
    t = await createTestApp({ customize: (b) => b.overrideProvider(Clock).useValue(clock) });
  });
  afterAll(() => t?.close());

  it('is not earlier than 20:00Z when 3 patients are held by quiet hours until then, and says so', async () => {
    const { apiKey } = await t.createOrganization();
    const policy = await t
      .http()
      .put('/api/v1/compliance/policy')
      .set('X-API-Key', apiKey)
      .send({
        quiet_hours: { start: '14:00', end: '21:00' },
        state_rules: true,
        max_calls_per_number: { per_24h: null, per_7d: null },
        restricted_dates: [],
        default_time_zone: 'America/New_York',
      });
    expect(policy.status).toBe(200);
    const campaign = await t.createCampaign(apiKey);
    // Numbers ending 1001 and up: the simulator answers them GOOD.
    const number = (i: number) => `+1555040${1001 + i}`;
    const open = [0, 1, 2, 3, 4, 5, 6].map((i) => ({
      phone_number: number(i),
      time_zone: 'Europe/Berlin',
    }));
    const held = [7, 8, 9].map((i) => ({ phone_number: number(i), time_zone: 'America/Chicago' }));
    const ids = await t.addTargets(apiKey, campaign.id, {
      launch: true,
      targets: [...open, ...held],
    });
    const stats = () =>
      t.http().get(`/api/v1/campaigns/${campaign.id}/stats`).set('X-API-Key', apiKey);
    const settled = await waitFor(
      stats,
      (r) => r.body.targets?.by_status?.Finished === 7 && r.body.held_by_rule?.quiet_hours === 3,
      30_000,
    );
    const heldTargets = await Promise.all(
      ids.slice(7).map(async (id) => {
        const r = await t.http().get(`/api/v1/targets/${id}`).set('X-API-Key', apiKey);
        return [r.body.status, r.body.scheduled_time, r.body.waiting_reason];
      }),
    );
    expect(heldTargets).toEqual(
      ids
        .slice(7)
        .map(() => [
          'Scheduled',
          '2026-01-05T20:00:00.000Z',
          'quiet hours: 12:55 in America/Chicago, calls from 14:00',
        ]),
    );
    // 7 calls started in the last 15 minutes: 7/15 a minute. The 3 held calls at that rate take
    // 6 min 26 s: from now that would be 19:01:26, but they may start only at 20:00.
    expect(settled.body).toEqual({
      campaign_id: campaign.id,
      state: 'active',
      as_of: '2026-01-05T18:55:00.000Z',
      targets: {
        total: 10,
        by_status: {
          Pending: 0,
          Scheduled: 3,
          'In Progress': 0,
          'Post-processing': 0,
          Finished: 7,
          'To review': 0,
          Failed: 0,
          Waiting: 0,
          'SMS Scheduled': 0,
        },
        by_category: { GOOD: 7 },
        by_resolution: { successful: 7 },
      },
      attempts: 7,
      calls_in_flight: 0,
      ended_calls: 7,
      connected_calls: 7,
      connect_rate: 1,
      average_call_seconds: expect.any(Number),
      due_now: 0,
      due_later: 3,
      held_by_rule: { quiet_hours: 3 },
      next_scheduled_time: '2026-01-05T20:00:00.000Z',
      recent_calls_per_minute: 0.4667,
      estimated_completion_at: '2026-01-05T20:06:26.000Z',
      estimate_held_until: '2026-01-05T20:00:00.000Z',
      estimate_held_by_rule: { quiet_hours: 3 },
    });
  });
});
