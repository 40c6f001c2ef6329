import { createTestApp, TestApp, waitFor } from '../support/test-app.js';

/**
 * Issue 12, "why not called yet": a target's timeline (GET /targets/{id}/events) and the single read's
 * waiting_reason, through every kind of wait and outcome, on the real database. Whole bodies are
 * asserted; only ids and times are normalised.
 */

const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
/** The simulator picks outcomes by the number's last four digits (simulated-call-provider.ts). */
const NO_ANSWER = '+15550170000';
const GOOD = (i: number) => `+1555017${String(1000 + i)}`;

interface Event {
  id: string;
  at: string;
  kind: string;
  status: string | null;
  actor: { type: string; id: string | null };
  reason: string;
  data: Record<string, unknown>;
}

/** Oldest first, without ids and times (checked for shape here), for whole-body comparisons. */
function normalised(items: Event[]) {
  for (const e of items) {
    expect(e.id).toMatch(/^[0-9a-f-]+$/);
    expect(e.at).toMatch(ISO);
  }
  const times = items.map((e) => Date.parse(e.at));
  expect([...times].sort((a, b) => b - a)).toEqual(times); // newest first
  return [...items].reverse().map(({ id: _id, at: _at, ...rest }) => rest);
}

describe('target timeline and waiting_reason', () => {
  let t: TestApp;

  beforeAll(async () => {
    // Calls last a few seconds, so a second target can be seen waiting for a call slot.
    t = await createTestApp({ env: { SIMULATED_CALL_SECONDS: '3' } });
  }, 120_000);
  afterAll(() => t?.close());

  async function tenant() {
    const { apiKey, organizationId } = await t.createOrganization();
    const [key] = await t.sql<{ id: string }>(
      `SELECT id FROM api_keys WHERE organization_id = $1`,
      [organizationId],
    );
    const as = (path: string, method: 'get' | 'post' | 'patch' | 'delete' = 'get') =>
      t.http()[method](path).set('X-API-Key', apiKey);
    return {
      apiKey,
      keyActor: { type: 'api_key', id: key.id },
      as,
      add: async (campaignId: string, targets: object[], launch = false) => {
        const res = await as(`/api/v1/campaigns/${campaignId}/targets`, 'post').send({
          targets,
          launch,
        });
        expect(res.status).toBe(200);
        return res.body.target_ids as string[];
      },
      target: async (id: string) => (await as(`/api/v1/targets/${id}`)).body,
      events: async (id: string) => {
        const res = await as(`/api/v1/targets/${id}/events?limit=200`);
        expect(res.status).toBe(200);
        expect(res.body.next_cursor).toBeNull();
        return res.body.items as Event[];
      },
    };
  }

  it('pause, trigger, resume, a retry and a cancel: every step with its cause and reason', async () => {
    const c = await tenant();
    const campaign = await t.createCampaign(c.apiKey, { max_attempts: 2, retry_delay_minutes: 60 });
    const [id] = await c.add(campaign.id, [{ phone_number: NO_ANSWER, input_data: { a: 1 } }]);
    expect((await c.target(id)).waiting_reason).toBe(
      'not launched: trigger calls or add with launch=true',
    );
    expect(
      (await c.as(`/api/v1/targets/${id}`, 'patch').send({ input_data: { note: 'x' } })).status,
    ).toBe(200);

    expect((await c.as(`/api/v1/campaigns/${campaign.id}/pause`, 'post')).status).toBe(200);
    const triggered = await c
      .as(`/api/v1/campaigns/${campaign.id}/calls`, 'post')
      .send({ target_ids: [id] });
    expect(triggered.status).toBe(200);
    expect((await c.target(id)).waiting_reason).toBe('campaign paused');

    expect((await c.as(`/api/v1/campaigns/${campaign.id}/resume`, 'post')).status).toBe(200);
    const retrying = await waitFor(
      () => c.target(id),
      (x) => x.status === 'Scheduled' && x.call_log_ids?.length === 1,
      60_000,
    );
    const retryAt = new Date(retrying.scheduled_time);
    const utc = `${retryAt.toISOString().slice(0, 10)} ${retryAt.toISOString().slice(11, 16)} UTC`;
    expect(retrying.waiting_reason).toBe(`retry 2 of 2 after NO_RESPONSE at ${utc}`);

    expect((await c.as(`/api/v1/campaigns/${campaign.id}/cancel`, 'post')).status).toBe(200);
    const ended = await c.target(id);
    expect([ended.status, ended.waiting_reason]).toEqual(['Finished', null]);

    const [callLogId] = retrying.call_log_ids;
    const events = await c.events(id);
    const provider = events.find((e) => e.kind === 'call_ended')!.actor;
    expect(provider).toEqual({ type: 'provider', id: expect.stringMatching(/^simulated:/) });
    const notifications = events.filter((e) => e.kind === 'notification').map((e) => e.id);
    expect(normalised(events)).toEqual([
      {
        kind: 'added',
        status: 'Pending',
        actor: c.keyActor,
        reason: 'added, not launched: trigger calls or add with launch=true',
        data: {},
      },
      {
        kind: 'input_edited',
        status: null,
        actor: c.keyActor,
        reason: 'input data edited',
        data: { keys: ['note'] },
      },
      {
        kind: 'status_changed',
        status: 'Scheduled',
        actor: c.keyActor,
        reason: 'calls triggered',
        data: { from: 'Pending', scheduled_time: expect.stringMatching(ISO) },
      },
      {
        kind: 'call_started',
        status: 'In Progress',
        actor: { type: 'worker', id: null },
        reason: 'call placed: attempt 1 of 2',
        data: { call_log_id: callLogId, attempt: 1 },
      },
      {
        kind: 'call_ended',
        status: 'Scheduled',
        actor: provider,
        reason: 'retry 2 of 2 after NO_RESPONSE',
        data: {
          call_log_id: callLogId,
          attempt: 1,
          outcome: 'No answer',
          resolution: null,
          category: 'NO_RESPONSE',
          subcategory: null,
          next_attempt_at: retryAt.toISOString(),
        },
      },
      {
        kind: 'notification',
        status: null,
        actor: { type: 'system', id: null },
        reason: 'target.call_finished notification recorded (no webhook_url)',
        data: {
          event_id: notifications[1],
          event_type: 'target.call_finished',
          delivery_status: null,
          delivery_attempts: 0,
        },
      },
      {
        kind: 'status_changed',
        status: 'Finished',
        actor: c.keyActor,
        reason: 'campaign cancelled',
        data: { from: 'Scheduled', outcome: 'Campaign cancelled', resolution: 'unsuccessful' },
      },
      {
        kind: 'notification',
        status: null,
        actor: { type: 'system', id: null },
        reason: 'target.call_finished notification recorded (no webhook_url)',
        data: {
          event_id: notifications[0],
          event_type: 'target.call_finished',
          delivery_status: null,
          delivery_attempts: 0,
        },
      },
    ]);

    // Paging by cursor gives the same events, each once, in order.
    const paged: Event[] = [];
    let cursor: string | null = null;
    do {
      const res = await c.as(
        `/api/v1/targets/${id}/events?limit=3${cursor ? `&cursor=${cursor}` : ''}`,
      );
      expect(res.status).toBe(200);
      expect(res.body.items.length).toBeLessThanOrEqual(3);
      paged.push(...res.body.items);
      cursor = res.body.next_cursor;
    } while (cursor !== null);
    expect(paged).toEqual(events);
  });

  it('waiting for a call slot, then called; outside the calling window: deferred with the opening', async () => {
    const c = await tenant();
    const capped = await t.createCampaign(c.apiKey, { max_concurrent_calls: 1 });
    const ids = await c.add(
      capped.id,
      [{ phone_number: GOOD(1) }, { phone_number: GOOD(2) }],
      true,
    );
    const seen = await waitFor(
      () => Promise.all(ids.map((id) => c.target(id))),
      (xs) =>
        xs.some((x) => x.status === 'In Progress') &&
        xs.some((x) => x.waiting_reason === 'campaign at max_concurrent_calls 1/1'),
      60_000,
      50,
    );
    expect(seen.map((x) => x.waiting_reason).sort()).toEqual([
      'campaign at max_concurrent_calls 1/1',
      null,
    ]);

    // A window open only on one weekday two days from now (in its zone) opens then, at 09:00.
    const tz = 'US/Eastern';
    const inTwoDays = new Date(Date.now() + 2 * 24 * 3600 * 1000);
    const weekday = new Intl.DateTimeFormat('en-US', { timeZone: tz, weekday: 'long' })
      .format(inTwoDays)
      .toLowerCase();
    const short = new Intl.DateTimeFormat('en-US', { timeZone: tz, weekday: 'short' }).format(
      inTwoDays,
    );
    const windowed = await t.createCampaign(c.apiKey, {
      calling_window: { tz, [weekday]: [{ start: '09:00', end: '10:00' }] },
    });
    const [later] = await c.add(windowed.id, [{ phone_number: GOOD(3) }], true);
    const deferred = await waitFor(
      () => c.events(later),
      (events) => events.some((e) => e.kind === 'deferred'),
      60_000,
    );
    const reason = `outside calling window: opens ${short} 09:00 ${tz}`;
    const scheduled = (await c.target(later)).scheduled_time;
    expect(normalised(deferred)).toEqual([
      {
        kind: 'added',
        status: 'Scheduled',
        actor: c.keyActor,
        reason: 'added and launched',
        data: {},
      },
      {
        kind: 'deferred',
        status: null,
        actor: { type: 'worker', id: null },
        reason,
        data: { scheduled_time: scheduled },
      },
    ]);
    expect((await c.target(later)).waiting_reason).toBe(reason);
  });

  it('waiting for a step, the step data, then deleted: the history outlives the target', async () => {
    const c = await tenant();
    const campaign = await t.createCampaign(c.apiKey, {
      steps: [{ friendly_id: 'labs', type: 'webhook', on_receive: 'merge' }],
      entry_step: 'labs',
    });
    const [id] = await c.add(campaign.id, [{ phone_number: GOOD(4) }], true);
    expect((await c.target(id)).waiting_reason).toBe('waiting for step labs');
    const step = await c
      .as(`/api/v1/campaigns/${campaign.id}/targets/${id}/step/labs`, 'post')
      .send({ hba1c: 6.1 });
    expect(step.status).toBe(200);
    const deleted = await c
      .as(`/api/v1/campaigns/${campaign.id}/targets`, 'delete')
      .send({ target_ids: [id] });
    expect(deleted.body.deleted).toEqual([id]);
    expect((await c.as(`/api/v1/targets/${id}`)).status).toBe(404);

    expect(normalised(await c.events(id))).toEqual([
      {
        kind: 'added',
        status: 'Waiting',
        actor: c.keyActor,
        reason: 'added, waiting for step labs',
        data: { step: 'labs' },
      },
      {
        kind: 'step_data',
        status: null,
        actor: c.keyActor,
        reason: 'step labs data received',
        data: { step: 'labs', keys: ['hba1c'] },
      },
      {
        kind: 'status_changed',
        status: 'Pending',
        actor: c.keyActor,
        reason: 'step labs data received',
        data: { from: 'Waiting' },
      },
      {
        kind: 'deleted',
        status: null,
        actor: c.keyActor,
        reason: 'deleted through the API',
        data: { last_status: 'Pending' },
      },
    ]);
  });

  it('a campaign change made by another process shows in waiting_reason within a second', async () => {
    const c = await tenant();
    const campaign = await t.createCampaign(c.apiKey);
    const [id] = await c.add(campaign.id, [{ phone_number: NO_ANSWER }]);
    const notLaunched = 'not launched: trigger calls or add with launch=true';
    expect((await c.target(id)).waiting_reason).toBe(notLaunched);
    // Cancelled past this process (as another replica's statement would): its read is kept a second.
    await t.sql(`UPDATE campaigns SET state = 'cancelled' WHERE id = $1`, [campaign.id]);
    const changedAt = Date.now();
    const seen = await waitFor(
      () => c.target(id),
      (x) => x.waiting_reason !== notLaunched,
      5_000,
      50,
    );
    expect(seen.waiting_reason).toBe('campaign cancelled');
    // RECENT_CAMPAIGN_MS, plus a request's time on a busy machine.
    expect(Date.now() - changedAt).toBeLessThan(2_000);
  });

  it("another organization's target is not found; bad paging is a 422", async () => {
    const owner = await tenant();
    const other = await tenant();
    const campaign = await t.createCampaign(owner.apiKey);
    const [id] = await owner.add(campaign.id, [{ phone_number: GOOD(5) }]);

    const foreign = await other.as(`/api/v1/targets/${id}/events`);
    expect([foreign.status, foreign.body]).toEqual([404, { detail: `Target ${id} not found` }]);
    const unknown = await owner.as('/api/v1/targets/00000000-0000-4000-8000-000000000000/events');
    expect([unknown.status, unknown.body]).toEqual([
      404,
      { detail: 'Target 00000000-0000-4000-8000-000000000000 not found' },
    ]);

    const bad = await owner.as(`/api/v1/targets/${id}/events?limit=201&cursor=nope`);
    expect([bad.status, bad.body]).toEqual([
      422,
      {
        detail: [
          {
            type: 'less_than_equal',
            loc: ['query', 'limit'],
            msg: 'Input should be less than or equal to 200',
            input: '201',
            ctx: { le: 200 },
          },
          {
            type: 'value_error',
            loc: ['query', 'cursor'],
            msg: 'Value error, invalid cursor',
            input: 'nope',
            ctx: { error: {} },
          },
        ],
      },
    ]);
    const zero = await owner.as(`/api/v1/targets/${id}/events?limit=0`);
    expect([zero.status, zero.body]).toEqual([
      422,
      {
        detail: [
          {
            type: 'greater_than_equal',
            loc: ['query', 'limit'],
            msg: 'Input should be greater than or equal to 1',
            input: '0',
            ctx: { ge: 1 },
          },
        ],
      },
    ]);
  });
});
