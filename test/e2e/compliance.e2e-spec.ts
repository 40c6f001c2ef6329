import { CallDispatcher } from '../../src/modules/calling/application/call-dispatcher.js';
import { zoneWhereClockReads } from '../support/clock-zones.js';
import { createTestApp, TestApp, waitFor } from '../support/test-app.js';

/**
 * Calling rules end to end on a real database (docs/compliance.md). The suite runs at any hour: the
 * targets it means to be open or closed carry `Etc/GMT±N` zones chosen from the clock at the start,
 * so one sits in the middle of its afternoon and the other in its small hours.
 */
describe('calling rules (policy, recipient zones, caps, decisions)', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await createTestApp({ env: { DEFAULT_CALLING_POLICY: 'standard' } });
  });
  afterAll(async () => {
    await t?.close();
  });

  const DEFAULT_BODY = {
    quiet_hours: { start: '08:00', end: '21:00' },
    state_rules: true,
    max_calls_per_number: { per_24h: null, per_7d: null },
    restricted_dates: [],
    default_time_zone: 'America/New_York',
  };

  /** The next 08:00 in an `Etc/GMT` zone whose clock now reads 03:xx. */
  function nextEight(zone: string): string {
    const offsetHours = zone === 'Etc/GMT' ? 0 : -Number(zone.slice(7));
    const now = new Date();
    const local = new Date(now.getTime() + offsetHours * 3600_000);
    const eight = Date.UTC(local.getUTCFullYear(), local.getUTCMonth(), local.getUTCDate(), 8);
    return new Date(eight - offsetHours * 3600_000).toISOString();
  }

  async function setup(campaign: Record<string, unknown> = {}) {
    const { organizationId, apiKey } = await t.createOrganization();
    const c = await t.createCampaign(apiKey, campaign);
    return { organizationId, apiKey, campaignId: c.id as string };
  }

  const put = (apiKey: string, body: unknown) =>
    t
      .http()
      .put('/api/v1/compliance/policy')
      .set('X-API-Key', apiKey)
      .send(body as object);
  const getTarget = async (apiKey: string, id: string) =>
    (await t.http().get(`/api/v1/targets/${id}`).set('X-API-Key', apiKey)).body;

  describe('GET and PUT /api/v1/compliance/policy', () => {
    it('answers the defaults with the state rules in force, and keeps a whole new policy', async () => {
      const { apiKey } = await setup();
      const before = await t.http().get('/api/v1/compliance/policy').set('X-API-Key', apiKey);
      expect(before.status).toBe(200);
      expect(before.body).toMatchObject({ ...DEFAULT_BODY, warnings: [] });
      expect(
        before.body.state_rule_pack.rules.map((r: { id: string; hours: string }) => [
          r.id,
          r.hours,
        ]),
      ).toEqual([
        ['FL-501.616', '08:00-20:00'],
        ['OK-775C.4', '08:00-20:00'],
        ['MD-14-4503', '08:00-20:00'],
      ]);
      const body = {
        quiet_hours: null,
        state_rules: false,
        max_calls_per_number: { per_24h: 2, per_7d: 5 },
        restricted_dates: [
          { date: '2026-12-25', reason: 'Christmas Day' },
          { date: '2026-11-26', reason: 'Thanksgiving' },
        ],
        default_time_zone: 'America/Chicago',
      };
      const res = await put(apiKey, body);
      expect(res.status).toBe(200);
      const expected = {
        ...body,
        default_country: 'US',
        restricted_dates: [body.restricted_dates[1], body.restricted_dates[0]],
        warnings: [
          "QUIET HOURS ARE OFF: calls may be placed at any hour of the recipient's day, outside the 08:00-21:00 the TCPA allows",
          'STATE RULES ARE OFF: stricter state hours and call limits are not applied',
        ],
        state_rule_pack: before.body.state_rule_pack,
      };
      expect(res.body).toEqual(expected);
      const after = await t.http().get('/api/v1/compliance/policy').set('X-API-Key', apiKey);
      expect(after.body).toEqual(expected);
      // Another organization still has the defaults.
      const other = await setup();
      const theirs = await t.http().get('/api/v1/compliance/policy').set('X-API-Key', other.apiKey);
      expect(theirs.body).toMatchObject(DEFAULT_BODY);
    });

    it('refuses a bad policy at the field with FastAPI bodies, and keeps the old one', async () => {
      const { apiKey } = await setup();
      const res = await put(apiKey, {
        quiet_hours: { start: '9am', end: '21:00' },
        state_rules: 'perhaps',
        max_calls_per_number: { per_24h: 0 },
        restricted_dates: [
          { date: '2026-02-30', reason: 'no such day' },
          { date: '2026-12-25', reason: '' },
        ],
        default_time_zone: 'Mars/Olympus',
      });
      expect(res.status).toBe(422);
      expect(res.body).toEqual({
        detail: [
          {
            type: 'value_error',
            loc: ['body', 'quiet_hours', 'start'],
            msg: 'Value error, time must be HH:MM (00:00 to 24:00)',
            input: '9am',
            ctx: { error: {} },
          },
          {
            type: 'bool_parsing',
            loc: ['body', 'state_rules'],
            msg: 'Input should be a valid boolean, unable to interpret input',
            input: 'perhaps',
          },
          {
            type: 'greater_than_equal',
            loc: ['body', 'max_calls_per_number', 'per_24h'],
            msg: 'Input should be greater than or equal to 1',
            input: 0,
            ctx: { ge: 1 },
          },
          {
            type: 'missing',
            loc: ['body', 'max_calls_per_number', 'per_7d'],
            msg: 'Field required',
            input: { per_24h: 0 },
          },
          {
            type: 'value_error',
            loc: ['body', 'restricted_dates', 0, 'date'],
            msg: 'Value error, date must be a real calendar date',
            input: '2026-02-30',
            ctx: { error: {} },
          },
          {
            type: 'string_too_short',
            loc: ['body', 'restricted_dates', 1, 'reason'],
            msg: 'String should have at least 1 character',
            input: '',
            ctx: { min_length: 1 },
          },
          {
            type: 'value_error',
            loc: ['body', 'default_time_zone'],
            msg: 'Value error, unknown time zone "Mars/Olympus"',
            input: 'Mars/Olympus',
            ctx: { error: {} },
          },
        ],
      });
      const missing = await put(apiKey, { state_rules: true });
      expect(missing.status).toBe(422);
      expect(missing.body.detail.map((d: { loc: unknown[] }) => d.loc)).toEqual([
        ['body', 'quiet_hours'],
        ['body', 'max_calls_per_number'],
        ['body', 'restricted_dates'],
        ['body', 'default_time_zone'],
      ]);
      const twice = await put(apiKey, {
        ...DEFAULT_BODY,
        quiet_hours: { start: '21:00', end: '08:00' },
        restricted_dates: [
          { date: '2026-12-25', reason: 'a' },
          { date: '2026-12-25', reason: 'b' },
        ],
      });
      expect(twice.status).toBe(422);
      expect(twice.body.detail.map((d: { loc: unknown[]; msg: string }) => [d.loc, d.msg])).toEqual(
        [
          [['body', 'quiet_hours'], 'Value error, end must be after start'],
          [['body', 'restricted_dates'], 'Value error, date 2026-12-25 is listed twice'],
        ],
      );
      const kept = await t.http().get('/api/v1/compliance/policy').set('X-API-Key', apiKey);
      expect(kept.body).toMatchObject(DEFAULT_BODY);
    });
  });

  describe('recipient zones', () => {
    it("reads the zones from the target's time_zone, the number, or the organization default", async () => {
      const { apiKey, campaignId } = await setup();
      const ids = await t.addTargets(apiKey, campaignId, {
        targets: [
          { phone_number: '+14055550123' },
          { phone_number: '+19075550100' },
          { phone_number: '+15550100001' },
          { phone_number: '+14055550124', time_zone: 'America/Denver' },
        ],
      });
      const read = await Promise.all(ids.map((id) => getTarget(apiKey, id)));
      expect(read.map((r) => [r.time_zones, r.time_zone_source, r.region])).toEqual([
        [['America/Chicago'], 'phone_number', 'Oklahoma'],
        [['America/Adak', 'America/Anchorage'], 'phone_number', 'Alaska'],
        [['America/New_York'], 'organization_default', null],
        [['America/Denver'], 'target', 'Oklahoma'],
      ]);
      const bad = await t
        .http()
        .post(`/api/v1/campaigns/${campaignId}/targets`)
        .set('X-API-Key', apiKey)
        .send({ targets: [{ phone_number: '+15550100002', time_zone: 'Mars/Olympus' }] });
      expect(bad.status).toBe(422);
      expect(bad.body).toEqual({
        detail: [
          {
            type: 'value_error',
            loc: ['body', 'targets', 0, 'time_zone'],
            msg: 'Value error, unknown time zone "Mars/Olympus"',
            input: 'Mars/Olympus',
            ctx: { error: {} },
          },
        ],
      });
    });

    it('says an Indian number’s zone by its current name, Asia/Kolkata, in the target, its wait and the decision', async () => {
      const { apiKey, campaignId } = await setup();
      // Quiet hours that hold India now: calls only in an hour of Kolkata's day that is not this one.
      const kolkataOffsetMs = 5.5 * 3600_000;
      const now = Date.now();
      const kolkataHour = new Date(now + kolkataOffsetMs).getUTCHours();
      const [from, until] = kolkataHour >= 12 ? ['01:00', '02:00'] : ['22:00', '23:00'];
      const policy = await put(apiKey, {
        ...DEFAULT_BODY,
        quiet_hours: { start: from, end: until },
      });
      expect(policy.status).toBe(200);
      const local = new Date(now + kolkataOffsetMs);
      let opens =
        Date.UTC(
          local.getUTCFullYear(),
          local.getUTCMonth(),
          local.getUTCDate(),
          Number(from.slice(0, 2)),
        ) - kolkataOffsetMs;
      if (opens <= now) opens += 24 * 3600_000;

      const [id] = await t.addTargets(apiKey, campaignId, {
        launch: true,
        targets: [{ phone_number: '+91 98765 43210' }],
      });
      const held = await waitFor(
        () => getTarget(apiKey, id),
        (x) => x.waiting_reason?.startsWith('quiet hours') ?? false,
      );
      const localTime = held.waiting_reason.slice(
        'quiet hours: '.length,
        'quiet hours: '.length + 5,
      );
      expect(held).toMatchObject({
        status: 'Scheduled',
        phone_number: '+919876543210',
        scheduled_time: new Date(opens).toISOString(),
        waiting_reason: `quiet hours: ${localTime} in Asia/Kolkata, calls from ${from}`,
        time_zones: ['Asia/Kolkata'],
        time_zone_source: 'phone_number',
        region: null,
      });
      const decisions = await t
        .http()
        .get(`/api/v1/compliance/decisions?campaign_id=${campaignId}`)
        .set('X-API-Key', apiKey);
      expect(decisions.body).toEqual({
        total: 1,
        decisions: [
          {
            id: expect.any(Number),
            campaign_id: campaignId,
            target_id: id,
            rule: 'quiet_hours',
            action: 'deferred',
            reason: held.waiting_reason,
            time_zone: 'Asia/Kolkata',
            local_time: expect.stringMatching(new RegExp(`^\\d{4}-\\d\\d-\\d\\d ${localTime}$`)),
            deferred_until: new Date(opens).toISOString(),
            decided_at: expect.any(String),
          },
        ],
      });
    });

    it('takes the zone from a CSV column and from PATCH, where a held target is decided again', async () => {
      const { apiKey, campaignId } = await setup();
      const closed = zoneWhereClockReads(3);
      const open = zoneWhereClockReads(14);
      const csv = await t
        .http()
        .post(`/api/v1/campaigns/${campaignId}/targets/import?launch=true`)
        .set('X-API-Key', apiKey)
        .set('Content-Type', 'text/csv')
        .send(
          `phone_number,time_zone\n+15550100041,${closed}\n+15550100042,\n+15550100043,Mars/Olympus\n`,
        );
      expect(csv.status).toBe(200);
      expect(csv.body).toMatchObject({
        status: 'rejected',
        errors: [
          {
            row: 4,
            column: 'time_zone',
            loc: ['time_zone'],
            type: 'value_error',
            msg: 'Value error, unknown time zone "Mars/Olympus"',
          },
        ],
      });
      const good = await t
        .http()
        .post(`/api/v1/campaigns/${campaignId}/targets/import?launch=true`)
        .set('X-API-Key', apiKey)
        .set('Content-Type', 'text/csv')
        .send(`phone_number,time_zone\n+15550100041,${closed}\n+15550100042,\n`);
      expect(good.body).toMatchObject({ status: 'succeeded', created: 2 });
      const list = await t
        .http()
        .get(`/api/v1/campaigns/${campaignId}/targets`)
        .set('X-API-Key', apiKey);
      const byNumber = Object.fromEntries(
        list.body.targets.map((x: { phone_number: string; id: string }) => [x.phone_number, x.id]),
      );
      const heldId = byNumber['+15550100041'];
      expect((await getTarget(apiKey, byNumber['+15550100042'])).time_zone_source).toBe(
        'organization_default',
      );
      await waitFor(
        () => getTarget(apiKey, heldId),
        (x) => x.waiting_reason?.startsWith(`quiet hours: 03:`) ?? false,
      );
      const patched = await t
        .http()
        .patch(`/api/v1/targets/${heldId}`)
        .set('X-API-Key', apiKey)
        .send({ input_data: {}, time_zone: open });
      expect(patched.status).toBe(200);
      const called = await waitFor(
        () => getTarget(apiKey, heldId),
        (x) => x.status === 'Finished',
        30_000,
      );
      expect(called).toMatchObject({ time_zones: [open], time_zone_source: 'target' });
      const bad = await t
        .http()
        .patch(`/api/v1/targets/${heldId}`)
        .set('X-API-Key', apiKey)
        .send({ input_data: {}, time_zone: 'Mars/Olympus', only_if_not_started: false });
      expect(bad.status).toBe(422);
      expect(bad.body.detail).toEqual([
        {
          type: 'value_error',
          loc: ['body', 'time_zone'],
          msg: 'Value error, unknown time zone "Mars/Olympus"',
          input: 'Mars/Olympus',
          ctx: { error: {} },
        },
      ]);
    });

    it('calls the target whose zone is open and holds the one in its small hours, saying why', async () => {
      const { organizationId, apiKey, campaignId } = await setup();
      const open = zoneWhereClockReads(14);
      const closed = zoneWhereClockReads(3);
      const [called, held] = await t.addTargets(apiKey, campaignId, {
        launch: true,
        targets: [
          { phone_number: '+15550100011', time_zone: open },
          { phone_number: '+15550100012', time_zone: closed },
        ],
      });
      await waitFor(
        () => getTarget(apiKey, called),
        (x) => x.status === 'Finished',
        30_000,
      );
      const heldRead = await waitFor(
        () => getTarget(apiKey, held),
        (x) => x.waiting_reason?.startsWith('quiet hours') ?? false,
      );
      const localTime = heldRead.waiting_reason.slice(
        'quiet hours: '.length,
        'quiet hours: '.length + 5,
      );
      expect(localTime).toMatch(/^03:\d\d$/);
      expect(heldRead).toMatchObject({
        status: 'Scheduled',
        scheduled_time: nextEight(closed),
        waiting_reason: `quiet hours: ${localTime} in ${closed}, calls from 08:00`,
        time_zones: [closed],
        time_zone_source: 'target',
        call_log_ids: null,
      });
      const stats = await t
        .http()
        .get(`/api/v1/campaigns/${campaignId}/stats`)
        .set('X-API-Key', apiKey);
      expect(stats.body.held_by_rule).toEqual({ quiet_hours: 1 });
      const events = await t.http().get(`/api/v1/targets/${held}/events`).set('X-API-Key', apiKey);
      expect(JSON.stringify(events.body)).toContain(heldRead.waiting_reason);
      const decisions = await t
        .http()
        .get(`/api/v1/compliance/decisions?campaign_id=${campaignId}`)
        .set('X-API-Key', apiKey);
      expect(decisions.status).toBe(200);
      expect(decisions.body).toEqual({
        total: 1,
        decisions: [
          {
            id: expect.any(Number),
            campaign_id: campaignId,
            target_id: held,
            rule: 'quiet_hours',
            action: 'deferred',
            reason: heldRead.waiting_reason,
            time_zone: closed,
            local_time: expect.stringMatching(/^\d{4}-\d\d-\d\d 03:\d\d$/),
            deferred_until: nextEight(closed),
            decided_at: expect.any(String),
          },
        ],
      });
      const csv = await t
        .http()
        .get(`/api/v1/compliance/decisions?campaign_id=${campaignId}`)
        .set('X-API-Key', apiKey)
        .set('Accept', 'text/csv');
      expect(csv.status).toBe(200);
      expect(csv.headers['content-type']).toBe('text/csv; charset=utf-8');
      const d = decisions.body.decisions[0];
      expect(csv.text).toBe(
        'id,campaign_id,target_id,rule,action,reason,time_zone,local_time,deferred_until,decided_at\n' +
          `${d.id},${campaignId},${held},quiet_hours,deferred,"${d.reason}",${closed},${d.local_time},${d.deferred_until},${d.decided_at}\n`,
      );
      // Another organization sees none of it; a range before the decision finds nothing.
      const other = await setup();
      const theirs = await t
        .http()
        .get('/api/v1/compliance/decisions')
        .set('X-API-Key', other.apiKey);
      expect(theirs.body).toEqual({ total: 0, decisions: [] });
      const early = await t
        .http()
        .get('/api/v1/compliance/decisions?to=2020-01-01')
        .set('X-API-Key', apiKey);
      expect(early.body).toEqual({ total: 0, decisions: [] });
      const rows = await t.sql(
        'SELECT count(*)::int AS n FROM compliance_decisions WHERE organization_id = $1',
        [organizationId],
      );
      expect(rows).toEqual([{ n: 1 }]);
    });

    it("holds a call on a restricted date in the recipient's zone", async () => {
      const { apiKey, campaignId } = await setup();
      const open = zoneWhereClockReads(14);
      const today = new Intl.DateTimeFormat('en-CA', { timeZone: open }).format(new Date());
      expect(
        (
          await put(apiKey, {
            ...DEFAULT_BODY,
            restricted_dates: [{ date: today, reason: 'Clinic closed' }],
          })
        ).status,
      ).toBe(200);
      const [held] = await t.addTargets(apiKey, campaignId, {
        launch: true,
        targets: [{ phone_number: '+15550100021', time_zone: open }],
      });
      const read = await waitFor(
        () => getTarget(apiKey, held),
        (x) => x.waiting_reason?.startsWith('restricted date') ?? false,
      );
      expect(read.waiting_reason).toBe(`restricted date ${today}: Clinic closed (in ${open})`);
      expect(read.status).toBe('Scheduled');
    });
  });

  describe('the do-not-call list at dispatch', () => {
    const noQuietHours = { ...DEFAULT_BODY, quiet_hours: null };

    it('stops in every campaign a number that asked a call of another not to be called again', async () => {
      const { apiKey } = await setup();
      expect((await put(apiKey, noQuietHours)).status).toBe(200);
      const first = await t.createCampaign(apiKey);
      const second = await t.createCampaign(apiKey);
      // The simulator's 0005: the patient asks not to be called again.
      const number = '+15550190005';
      const [asked] = await t.addTargets(apiKey, first.id, {
        launch: true,
        targets: [{ phone_number: number }],
      });
      const done = await waitFor(
        () => getTarget(apiKey, asked),
        (x) => x.status === 'Finished',
        30_000,
      );
      expect(done.category).toBe('DNC_REQUESTED');
      const [later] = await t.addTargets(apiKey, second.id, {
        launch: true,
        targets: [{ phone_number: number }],
      });
      const refused = await waitFor(
        () => getTarget(apiKey, later),
        (x) => x.status === 'Finished',
        30_000,
      );
      expect(refused).toMatchObject({
        status: 'Finished',
        category: 'BLACKLISTED_PHONE',
        outcome: 'Phone number is on the do-not-call list',
        call_log_ids: null,
        waiting_reason: null,
      });
      const decisions = await t
        .http()
        .get(`/api/v1/compliance/decisions?campaign_id=${second.id}`)
        .set('X-API-Key', apiKey);
      expect(decisions.body).toEqual({
        total: 1,
        decisions: [
          {
            id: expect.any(Number),
            campaign_id: second.id,
            target_id: later,
            rule: 'do_not_call',
            action: 'refused',
            reason: expect.stringMatching(
              /^on the do-not-call list since \d{4}-\d\d-\d\d \d\d:\d\d UTC$/,
            ),
            time_zone: null,
            local_time: null,
            deferred_until: null,
            decided_at: expect.any(String),
          },
        ],
      });
      const events = await t.http().get(`/api/v1/targets/${later}/events`).set('X-API-Key', apiKey);
      expect(JSON.stringify(events.body)).toContain(
        `ended without a call: Phone number is on the do-not-call list: ${decisions.body.decisions[0].reason}`,
      );
    });

    it('refuses a number added by hand, and calls it again once removed with a reason', async () => {
      const { apiKey, campaignId } = await setup();
      expect((await put(apiKey, noQuietHours)).status).toBe(200);
      const number = '+15550190061';
      const add = await t
        .http()
        .post('/api/v1/compliance/do-not-call')
        .set('X-API-Key', apiKey)
        .send({ phone_numbers: [{ phone_number: number, reason: 'letter of 2026-11-20' }] });
      expect(add.status).toBe(200);
      const [refusedId] = await t.addTargets(apiKey, campaignId, {
        launch: true,
        targets: [{ phone_number: number }],
      });
      await waitFor(
        () => getTarget(apiKey, refusedId),
        (x) => x.category === 'BLACKLISTED_PHONE',
        30_000,
      );
      const removed = await t
        .http()
        .delete('/api/v1/compliance/do-not-call')
        .set('X-API-Key', apiKey)
        .send({ phone_numbers: [number], reason: 'consent given again by phone, 2026-11-25' });
      expect(removed.status).toBe(200);
      const [calledId] = await t.addTargets(apiKey, campaignId, {
        launch: true,
        targets: [{ phone_number: number }],
      });
      const called = await waitFor(
        () => getTarget(apiKey, calledId),
        (x) => x.status === 'Finished',
        30_000,
      );
      expect(called).toMatchObject({ category: 'GOOD', call_log_ids: [expect.any(Number)] });
    });
  });

  describe('caps across campaigns', () => {
    it('places one call to a number capped at 1 per 24 h, however many dispatchers race', async () => {
      const { organizationId, apiKey } = await setup();
      expect(
        (
          await put(apiKey, {
            ...DEFAULT_BODY,
            quiet_hours: null,
            max_calls_per_number: { per_24h: 1, per_7d: null },
          })
        ).status,
      ).toBe(200);
      const campaigns = await Promise.all(
        [1, 2, 3].map(() => t.createCampaign(apiKey, { max_concurrent_calls: 5 })),
      );
      const number = '+15550100031';
      const ids = (
        await Promise.all(
          campaigns.map((c) => t.addTargets(apiKey, c.id, { targets: [{ phone_number: number }] })),
        )
      ).flat();
      // All three due at once, then four rounds race the background dispatcher.
      await Promise.all(
        campaigns.map((c) =>
          t
            .http()
            .post(`/api/v1/campaigns/${c.id}/calls`)
            .set('X-API-Key', apiKey)
            .send({ target_ids: ids.filter((_, i) => campaigns[i].id === c.id) }),
        ),
      );
      const dispatcher = t.app.get(CallDispatcher);
      await Promise.all([1, 2, 3, 4].map(() => dispatcher.round()));
      const reads = await waitFor(
        () => Promise.all(ids.map((id) => getTarget(apiKey, id))),
        (rs) =>
          rs.filter((r) => r.status === 'Finished').length === 1 &&
          rs.filter((r) => r.waiting_reason?.startsWith('organization limit')).length === 2,
        30_000,
      );
      const heldReasons = reads
        .filter((r) => r.status === 'Scheduled')
        .map((r) => r.waiting_reason.replace(/next at .*/, 'next at …'));
      expect(heldReasons).toEqual([
        'organization limit: 1 call per number in 24 h, next at …',
        'organization limit: 1 call per number in 24 h, next at …',
      ]);
      const logs = await t.sql(
        'SELECT count(*)::int AS n FROM call_logs WHERE organization_id = $1',
        [organizationId],
      );
      expect(logs).toEqual([{ n: 1 }]);
      const ledger = await t.sql(
        'SELECT phone_number, count(*)::int AS n FROM compliance_call_ledger WHERE organization_id = $1 GROUP BY 1',
        [organizationId],
      );
      expect(ledger).toEqual([{ phone_number: number, n: 1 }]);
    });
  });
});
