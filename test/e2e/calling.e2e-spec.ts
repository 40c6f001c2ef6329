import { randomUUID } from 'crypto';
import { UNKNOWN_ZONE_RECIPIENT } from '../support/target-bodies.js';
import { createTestApp, TestApp, waitFor } from '../support/test-app.js';

/** The trigger endpoint and every simulator outcome end to end, through the real dispatcher. */
describe('calling (trigger, dispatch, simulator)', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(async () => {
    await t?.close();
  });

  async function setup(campaign: Record<string, unknown> = {}) {
    const { organizationId, apiKey } = await t.createOrganization();
    const c = await t.createCampaign(apiKey, campaign);
    return { organizationId, apiKey, campaignId: c.id as string };
  }

  async function addTargets(
    apiKey: string,
    campaignId: string,
    targets: Record<string, unknown>[],
    launch = false,
  ) {
    const res = await t
      .http()
      .post(`/api/v1/campaigns/${campaignId}/targets`)
      .set('X-API-Key', apiKey)
      .send({ targets, launch });
    expect(res.status).toBe(200);
    return res.body.target_ids as string[];
  }

  const trigger = (apiKey: string, campaignId: string, body: unknown) =>
    t
      .http()
      .post(`/api/v1/campaigns/${campaignId}/calls`)
      .set('X-API-Key', apiKey)
      .send(body as object);

  const getTarget = async (apiKey: string, id: string) =>
    (await t.http().get(`/api/v1/targets/${id}`).set('X-API-Key', apiKey)).body;

  const FINAL = ['Finished', 'Failed', 'To review'];
  const waitFinal = (apiKey: string, ids: string[]) =>
    waitFor(
      () => Promise.all(ids.map((id) => getTarget(apiKey, id))),
      (targets) => targets.every((x) => FINAL.includes(x.status)),
      30_000,
    );

  describe('POST /api/v1/campaigns/{campaign_id}/calls', () => {
    it('schedules the named Pending targets and reports the others', async () => {
      const { apiKey, campaignId } = await setup({ calling_window: closedWindow() });
      const other = await setup();
      const [a, b, c] = await addTargets(apiKey, campaignId, numbers(3));
      const [foreign] = await addTargets(other.apiKey, other.campaignId, numbers(1));
      const unknown = randomUUID();

      const first = await trigger(apiKey, campaignId, { target_ids: [a, b] });
      expect(first.status).toBe(200);
      expect(first.body).toEqual({ scheduled: [a, b], skipped: [] });

      const second = await trigger(apiKey, campaignId, {
        target_ids: [b, c, unknown, 'not-a-uuid', foreign, c],
      });
      expect(second.status).toBe(200);
      expect(second.body).toEqual({
        scheduled: [c],
        skipped: [
          { id: b, reason: 'not_pending' },
          { id: unknown, reason: 'not_found' },
          { id: 'not-a-uuid', reason: 'not_found' },
          { id: foreign, reason: 'not_found' },
        ],
      });
      const rows = await t.sql(
        `SELECT id, status, scheduled_time FROM targets WHERE id = ANY($1) ORDER BY id`,
        [[a, b, c]],
      );
      expect(rows.map((r) => r.status)).toEqual(['Scheduled', 'Scheduled', 'Scheduled']);
    });

    it('count picks that many Pending targets at random, or the oldest first', async () => {
      const { apiKey, campaignId } = await setup({ calling_window: closedWindow() });
      const ids: string[] = [];
      for (let i = 0; i < 6; i++) ids.push(...(await addTargets(apiKey, campaignId, numbers(1))));

      const oldest = await trigger(apiKey, campaignId, { count: 2, prioritize_oldest: true });
      expect(oldest.status).toBe(200);
      expect(oldest.body).toEqual({ scheduled: ids.slice(0, 2), skipped: [] });

      const random = await trigger(apiKey, campaignId, { count: 3 });
      expect(random.status).toBe(200);
      expect(random.body.skipped).toEqual([]);
      expect(random.body.scheduled).toHaveLength(3);
      expect(ids.slice(2)).toEqual(expect.arrayContaining(random.body.scheduled));

      // Only one Pending target is left.
      const rest = await trigger(apiKey, campaignId, { count: 10 });
      expect(rest.body.scheduled).toHaveLength(1);
      const none = await trigger(apiKey, campaignId, { count: 10 });
      expect(none.body).toEqual({ scheduled: [], skipped: [] });
    });

    it('oldest first follows the creation times PostgreSQL stores, to the microsecond', async () => {
      const { apiKey, campaignId } = await setup({ calling_window: closedWindow() });
      const ids = (await addTargets(apiKey, campaignId, numbers(3))).sort();
      // Created within one millisecond, in the reverse of their id order: a millisecond comparison
      // would see a tie and answer them in id order.
      await t.sql(
        `UPDATE targets SET created_at = '2026-03-01T12:00:00.000Z'::timestamptz + v.us * interval '1 microsecond'
           FROM unnest($1::uuid[], $2::int[]) AS v(id, us) WHERE targets.id = v.id`,
        [ids, [900, 500, 100]],
      );

      const oldest = await trigger(apiKey, campaignId, { count: 3, prioritize_oldest: true });
      expect(oldest.status).toBe(200);
      expect(oldest.body).toEqual({ scheduled: [...ids].reverse(), skipped: [] });
    });

    it('422 unless exactly one of target_ids and count', async () => {
      const { apiKey, campaignId } = await setup();
      const id = randomUUID();
      const both = await trigger(apiKey, campaignId, { target_ids: [id], count: 1 });
      expect(both.status).toBe(422);
      expect(both.body).toEqual({
        detail: [
          {
            type: 'value_error',
            loc: ['body'],
            msg: 'Value error, Exactly one of target_ids or count must be provided',
            input: { target_ids: [id], count: 1 },
            ctx: { error: {} },
          },
        ],
      });
      const neither = await trigger(apiKey, campaignId, { prioritize_oldest: true });
      expect(neither.status).toBe(422);
      expect(neither.body).toEqual({
        detail: [
          {
            type: 'value_error',
            loc: ['body'],
            msg: 'Value error, Exactly one of target_ids or count must be provided',
            input: { prioritize_oldest: true },
            ctx: { error: {} },
          },
        ],
      });
    });

    it('422 for out-of-range count and target_ids, with pydantic bodies', async () => {
      const { apiKey, campaignId } = await setup();
      const zero = await trigger(apiKey, campaignId, { count: 0 });
      expect(zero.status).toBe(422);
      expect(zero.body).toEqual({
        detail: [
          {
            type: 'greater_than_equal',
            loc: ['body', 'count'],
            msg: 'Input should be greater than or equal to 1',
            input: 0,
            ctx: { ge: 1 },
          },
        ],
      });
      const big = await trigger(apiKey, campaignId, { count: 10001 });
      expect(big.body).toEqual({
        detail: [
          {
            type: 'less_than_equal',
            loc: ['body', 'count'],
            msg: 'Input should be less than or equal to 10000',
            input: 10001,
            ctx: { le: 10000 },
          },
        ],
      });
      const empty = await trigger(apiKey, campaignId, { target_ids: [] });
      expect(empty.body).toEqual({
        detail: [
          {
            type: 'too_short',
            loc: ['body', 'target_ids'],
            msg: 'List should have at least 1 item after validation, not 0',
            input: [],
            ctx: { field_type: 'List', min_length: 1, actual_length: 0 },
          },
        ],
      });
      const tooMany = Array.from({ length: 5001 }, () => randomUUID());
      const long = await trigger(apiKey, campaignId, { target_ids: tooMany });
      expect(long.body).toEqual({
        detail: [
          {
            type: 'too_long',
            loc: ['body', 'target_ids'],
            msg: 'List should have at most 5000 items after validation, not 5001',
            input: tooMany,
            ctx: { field_type: 'List', max_length: 5000, actual_length: 5001 },
          },
        ],
      });
      const types = await trigger(apiKey, campaignId, {
        target_ids: [1],
        prioritize_oldest: 'maybe',
      });
      expect(types.body).toEqual({
        detail: [
          {
            type: 'string_type',
            loc: ['body', 'target_ids', 0],
            msg: 'Input should be a valid string',
            input: 1,
          },
          {
            type: 'bool_parsing',
            loc: ['body', 'prioritize_oldest'],
            msg: 'Input should be a valid boolean, unable to interpret input',
            input: 'maybe',
          },
        ],
      });
    });

    it('404 for an unknown, malformed or foreign campaign', async () => {
      const { apiKey } = await setup();
      const other = await setup();
      for (const id of [randomUUID(), 'nope', other.campaignId]) {
        const res = await trigger(apiKey, id, { count: 1 });
        expect(res.status).toBe(404);
        expect(res.body).toEqual({ detail: expect.any(String) });
      }
    });
  });

  describe('dispatch through the simulator', () => {
    it('each outcome of the simulator table ends as documented (one attempt)', async () => {
      const { apiKey, campaignId } = await setup({ max_attempts: 1, caller_id: '+15550009999' });
      const phones = [
        '+15550100000',
        '+15550100001',
        '+15550100002',
        '+15550100003',
        '+15550100004',
        '+15550101234',
      ];
      const ids = await addTargets(
        apiKey,
        campaignId,
        phones.map((phone_number, i) => ({ phone_number, input_data: { i } })),
      );
      const res = await trigger(apiKey, campaignId, { target_ids: ids });
      expect(res.body).toEqual({ scheduled: ids, skipped: [] });
      const done = await waitFinal(apiKey, ids);
      const summary = done.map((x) => [
        x.status,
        x.resolution,
        x.category,
        x.subcategory,
        x.outcome,
        x.retries,
      ]);
      expect(summary).toEqual([
        ['Finished', 'unsuccessful', 'NO_RESPONSE', null, 'No answer', 0],
        ['Finished', 'unsuccessful', 'VOICEMAIL', 'DELIVERED', 'Reached voicemail', 0],
        ['Finished', 'unsuccessful', 'DISCONNECTED', null, 'Call could not be connected', 0],
        [
          'Failed',
          'unsuccessful',
          'SERVICE_NOT_AVAILABLE',
          'TECHNICAL_ISSUE',
          'Technical failure',
          0,
        ],
        ['To review', null, 'HUMAN_ONLY', 'MID_CALL', 'A person must follow up', 0],
        ['Finished', 'successful', 'GOOD', null, 'Call completed', 0],
      ]);
      const good = done[5];
      expect(good).toEqual({
        id: ids[5],
        target_url: `http://localhost:3000/api/v1/targets/${ids[5]}`,
        organization_id: expect.any(String),
        campaign_id: campaignId,
        created_at: expect.any(String),
        execution_minutes: 0,
        input_data: { i: 5 },
        output_data: { call_summary: 'The callee confirmed the information.', confirmed: true },
        status: 'Finished',
        resolution: 'successful',
        category: 'GOOD',
        subcategory: null,
        call_log_ids: [expect.any(Number)],
        last_call_date: expect.any(String),
        phone_number: '+15550101234',
        fax_links: null,
        payor_api_data: null,
        external_id: null,
        updated_at: expect.any(String),
        retries: 0,
        scheduled_time: expect.any(String),
        categorization: {
          category: 'GOOD',
          subcategory: null,
          resolution: 'successful',
          outcome: 'GOOD',
          call_log_id: good.call_log_ids[0],
        },
        outcome: 'Call completed',
        statistics: {
          attempts: 1,
          execution_seconds: 0,
          last_call_outcome: 'GOOD',
          last_call_log_id: good.call_log_ids[0],
        },
        patient: null,
        waiting_reason: null,
        ...UNKNOWN_ZONE_RECIPIENT,
      });
      const logs = await t.sql(
        `SELECT target_id, to_number, from_number, outcome, ended_reason FROM call_logs WHERE target_id = ANY($1)`,
        [ids],
      );
      expect(logs).toHaveLength(6);
      expect(logs.find((l) => l.target_id === ids[3])).toEqual({
        target_id: ids[3],
        to_number: '+15550100003',
        from_number: '+15550009999',
        outcome: 'TECHNICAL_FAILURE',
        ended_reason: 'provider-error',
      });
      // Every outcome came through the event path: the simulator's started and ended, stored once.
      const events = await t.sql(
        `SELECT l.target_id, array_agg(e.kind ORDER BY e.kind) AS kinds
           FROM call_logs l JOIN call_events e ON e.call_log_id = l.id AND e.connection = 'simulated'
          WHERE l.target_id = ANY($1) GROUP BY l.target_id`,
        [ids],
      );
      expect(events.map((e) => e.kinds)).toEqual(ids.map(() => ['ended', 'started']));
    });

    it('retries a retryable outcome after retry_delay_minutes, up to max_attempts', async () => {
      const { apiKey, campaignId } = await setup({ max_attempts: 3, retry_delay_minutes: 0 });
      const [id] = await addTargets(apiKey, campaignId, [{ phone_number: '+15550100001' }]);
      await trigger(apiKey, campaignId, { target_ids: [id] });
      const [done] = await waitFinal(apiKey, [id]);
      expect(done).toMatchObject({
        status: 'Finished',
        resolution: 'unsuccessful',
        category: 'VOICEMAIL',
        retries: 2,
      });
      expect(done.call_log_ids).toHaveLength(3);
      const [{ attempts }] = await t.sql(`SELECT attempts FROM targets WHERE id = $1`, [id]);
      expect(attempts).toBe(3);
    });

    it('dials the fallback number after a failed connect', async () => {
      const { apiKey, campaignId } = await setup({ max_attempts: 2, retry_delay_minutes: 0 });
      const [id] = await addTargets(apiKey, campaignId, [
        { phone_number: '+15550100002', fallback_phone_number: '+15550105555' },
      ]);
      await trigger(apiKey, campaignId, { target_ids: [id] });
      const [done] = await waitFinal(apiKey, [id]);
      expect(done).toMatchObject({
        status: 'Finished',
        resolution: 'successful',
        category: 'GOOD',
        retries: 1,
      });
      const logs = await t.sql(`SELECT to_number FROM call_logs WHERE target_id = $1 ORDER BY id`, [
        id,
      ]);
      expect(logs.map((l) => l.to_number)).toEqual(['+15550100002', '+15550105555']);
    });

    it('never dials a blacklisted number: Finished / BLACKLISTED_PHONE without a call log', async () => {
      const { apiKey } = await setup();
      const blacklist = await t
        .http()
        .post('/api/v1/blacklists')
        .set('X-API-Key', apiKey)
        .send({ name: 'dnc' });
      expect(blacklist.status).toBe(201);
      const added = await t
        .http()
        .post(`/api/v1/blacklists/${blacklist.body.id}/phone-numbers`)
        .set('X-API-Key', apiKey)
        .send({ phone_numbers: [{ phone_number: '+15550107000' }] });
      expect(added.status).toBeLessThan(300);
      const campaign = await t.createCampaign(apiKey, {
        type: 'payor',
        blacklist_ids: [blacklist.body.id],
      });
      const [listed, fine] = await addTargets(apiKey, campaign.id, [
        { phone_number: '+1 555 010 7000' },
        { phone_number: '+15550107001' },
      ]);
      await trigger(apiKey, campaign.id, { target_ids: [listed, fine] });
      const [a, b] = await waitFinal(apiKey, [listed, fine]);
      expect([a.status, a.resolution, a.category, a.call_log_ids]).toEqual([
        'Finished',
        'not_retrieved',
        'BLACKLISTED_PHONE',
        null,
      ]);
      expect([b.status, b.resolution, b.category]).toEqual(['Finished', 'retrieved', 'GOOD']);
      const logs = await t.sql(`SELECT count(*)::int AS n FROM call_logs WHERE target_id = $1`, [
        listed,
      ]);
      expect(logs[0].n).toBe(0);
    });

    it('never dials an organization-level entry, even from a campaign not naming its blacklist', async () => {
      const { apiKey, campaignId } = await setup({ type: 'payor' });
      const blacklist = await t
        .http()
        .post('/api/v1/blacklists')
        .set('X-API-Key', apiKey)
        .send({ name: 'Do not call' });
      const added = await t
        .http()
        .post(`/api/v1/blacklists/${blacklist.body.id}/phone-numbers`)
        .set('X-API-Key', apiKey)
        .send({
          phone_numbers: [
            { phone_number: '+1 555 010 7010', reason: 'asked', level: 'organization' },
            { phone_number: '+15550107011', reason: 'wrong clinic', level: 'campaign' },
          ],
        });
      expect([added.status, added.body]).toEqual([200, { added: 2, updated: 0 }]);
      const [orgLevel, campaignLevel, unlisted] = await addTargets(apiKey, campaignId, [
        { phone_number: '+15550107010' },
        { phone_number: '+15550107011' },
        { phone_number: '+15550107012' },
      ]);
      // Another organization's campaign is not held by this organization's list.
      const stranger = await setup({ type: 'payor' });
      const [theirs] = await addTargets(stranger.apiKey, stranger.campaignId, [
        { phone_number: '+15550107010' },
      ]);
      await trigger(apiKey, campaignId, { target_ids: [orgLevel, campaignLevel, unlisted] });
      await trigger(stranger.apiKey, stranger.campaignId, { target_ids: [theirs] });
      const done = await waitFinal(apiKey, [orgLevel, campaignLevel, unlisted]);
      const [theirsDone] = await waitFinal(stranger.apiKey, [theirs]);
      expect(
        [...done, theirsDone].map((x) => [
          x.phone_number,
          x.status,
          x.resolution,
          x.category,
          x.call_log_ids?.length ?? 0,
        ]),
      ).toEqual([
        ['+15550107010', 'Finished', 'not_retrieved', 'BLACKLISTED_PHONE', 0],
        ['+15550107011', 'Finished', 'retrieved', 'GOOD', 1],
        ['+15550107012', 'Finished', 'retrieved', 'GOOD', 1],
        ['+15550107010', 'Finished', 'retrieved', 'GOOD', 1],
      ]);
      const logs = await t.sql(
        `SELECT to_number FROM call_logs WHERE campaign_id = $1 ORDER BY 1`,
        [campaignId],
      );
      expect(logs.map((l) => l.to_number)).toEqual(['+15550107011', '+15550107012']);
    });

    it('outside the calling window the target waits Scheduled until the next opening', async () => {
      const window = closedWindow();
      const { apiKey, campaignId } = await setup({ calling_window: window });
      const [id] = await addTargets(apiKey, campaignId, numbers(1));
      await trigger(apiKey, campaignId, { target_ids: [id] });
      const target = await waitFor(
        () => getTarget(apiKey, id),
        (x) =>
          x.scheduled_time !== null && new Date(x.scheduled_time).getTime() > Date.now() + 60_000,
      );
      expect(target.status).toBe('Scheduled');
      expect(target.call_log_ids).toBeNull();
      // The window opens at 03:00 UTC on the only day it lists.
      const opening = new Date(target.scheduled_time);
      expect([opening.getUTCHours(), opening.getUTCMinutes()]).toEqual([3, 0]);
    });

    it('launch=true on add targets dispatches at once', async () => {
      const { apiKey, campaignId } = await setup();
      const ids = await addTargets(apiKey, campaignId, numbers(2), true);
      const done = await waitFinal(apiKey, ids);
      expect(done.map((x) => x.status)).toEqual(['Finished', 'Finished']);
    });
  });
});

let phoneCounter = 0;
/** Numbers that end in a good call (last four digits 1000..8999). */
function numbers(n: number) {
  return Array.from({ length: n }, () => ({
    phone_number: `+1555${String(2000000 + (phoneCounter++ % 7000000) + 1000).padStart(7, '0')}`,
  }));
}

/** A window open only 03:00-03:01 UTC two days from now: closed during the test. */
function closedWindow() {
  const days = ['sunday', 'monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday'];
  const day = days[(new Date().getUTCDay() + 2) % 7];
  return { tz: 'UTC', [day]: [{ start: '03:00', end: '03:01' }] };
}
