import { randomUUID } from 'crypto';
import { exited, freePort, startProcess } from '../support/run-process.js';
import { createTestApp, TestApp, waitFor, waitForHealth } from '../support/test-app.js';
import { createTestDatabase } from '../support/test-database.js';

const URL = '/api/v1/compliance/do-not-call';
const PHONE_RULE =
  'Value error, phone number must be + followed by 7 to 15 digits (spaces, dashes, dots and parentheses are ignored)';
/** Who changed the list, as the answers name them. */
interface Actor {
  type: 'api_key' | 'user';
  id: string;
  name: string;
}

const ISO = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/;

/** The organization's do-not-call list through its routes, and a call that puts a number on it. */
describe('the do-not-call list (/api/v1/compliance/do-not-call)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(async () => {
    await t?.close();
  });

  async function tenant() {
    const { organizationId, apiKey } = await t.createOrganization();
    const [{ id, name }] = await t.sql<{ id: string; name: string }>(
      `SELECT id, name FROM api_keys WHERE organization_id = $1`,
      [organizationId],
    );
    const key: Actor = { type: 'api_key', id, name };
    const as = <R extends { set(k: string, v: string): R }>(r: R) => r.set('X-API-Key', apiKey);
    return {
      organizationId,
      apiKey,
      key,
      add: (body: unknown) => as(t.http().post(URL)).send(body as object),
      remove: (body: unknown) => as(t.http().delete(URL)).send(body as object),
      list: (query: Record<string, string | number | boolean> = {}) =>
        as(t.http().get(URL)).query(query),
    };
  }

  const byApi = (phone_number: string, reason: string, added_by: Actor) => ({
    phone_number,
    reason,
    source: { type: 'api', added_by },
    created_at: expect.stringMatching(ISO),
    removed: null,
  });

  it('adds numbers normalised, lists and searches them; a listed number keeps its first entry', async () => {
    const a = await tenant();
    const added = await a.add({
      phone_numbers: [
        { phone_number: '+1 (555) 030-0001', reason: 'letter of 2026-11-02' },
        { phone_number: '+15550300002', reason: 'email of 2026-11-03' },
        { phone_number: '+1.555.030.0001', reason: 'the same number twice' },
      ],
    });
    expect([added.status, added.body]).toEqual([
      200,
      {
        added: [
          byApi('+15550300001', 'letter of 2026-11-02', a.key),
          byApi('+15550300002', 'email of 2026-11-03', a.key),
        ],
        already_listed: [],
      },
    ]);
    const again = await a.add({
      phone_numbers: [
        { phone_number: '+15550300002', reason: 'another email' },
        { phone_number: '+442079460003', reason: 'told the front desk' },
      ],
    });
    expect([again.status, again.body]).toEqual([
      200,
      {
        added: [byApi('+442079460003', 'told the front desk', a.key)],
        already_listed: [added.body.added[1]],
      },
    ]);

    const all = await a.list();
    expect([all.status, all.body]).toEqual([
      200,
      { phone_numbers: [...added.body.added, ...again.body.added], total: 3 },
    ]);
    const page = await a.list({ limit: 1, skip: 1 });
    expect(page.body).toEqual({ phone_numbers: [added.body.added[1]], total: 3 });
    const search = await a.list({ phone_number: '(555) 030' });
    expect(search.body).toEqual({ phone_numbers: added.body.added, total: 2 });
    expect((await a.list({ phone_number: '+44' })).body).toEqual({
      phone_numbers: again.body.added,
      total: 1,
    });
    expect((await a.list({ phone_number: '999999' })).body).toEqual({
      phone_numbers: [],
      total: 0,
    });
  });

  it('removes numbers with a reason; the removal is kept in the history and a number can be listed again', async () => {
    const a = await tenant();
    await a.add({
      phone_numbers: [
        { phone_number: '+15550310001', reason: 'letter' },
        { phone_number: '+15550310002', reason: 'email' },
      ],
    });
    const removed = await a.remove({
      phone_numbers: ['+1 555 031 0002', '+15550319999'],
      reason: 'consent given again by phone on 2026-11-20',
    });
    const removal = {
      removed_at: expect.stringMatching(ISO),
      reason: 'consent given again by phone on 2026-11-20',
      removed_by: a.key,
    };
    expect([removed.status, removed.body]).toEqual([
      200,
      {
        removed: [{ ...byApi('+15550310002', 'email', a.key), removed: removal }],
        not_listed: ['+15550319999'],
      },
    ]);
    expect((await a.list()).body).toEqual({
      phone_numbers: [byApi('+15550310001', 'letter', a.key)],
      total: 1,
    });
    const relisted = await a.add({
      phone_numbers: [{ phone_number: '+15550310002', reason: 'asked again' }],
    });
    expect(relisted.body.added).toEqual([byApi('+15550310002', 'asked again', a.key)]);
    expect((await a.list({ include_removed: true })).body).toEqual({
      phone_numbers: [
        byApi('+15550310001', 'letter', a.key),
        removed.body.removed[0],
        relisted.body.added[0],
      ],
      total: 3,
    });
    expect(
      await t.sql(
        `SELECT phone_number, reason, source, removal_reason, removed_by_type, removed_by_id
           FROM do_not_call_entries WHERE organization_id = $1 ORDER BY id`,
        [a.organizationId],
      ),
    ).toEqual([
      {
        phone_number: '+15550310001',
        reason: 'letter',
        source: 'api',
        removal_reason: null,
        removed_by_type: null,
        removed_by_id: null,
      },
      {
        phone_number: '+15550310002',
        reason: 'email',
        source: 'api',
        removal_reason: 'consent given again by phone on 2026-11-20',
        removed_by_type: 'api_key',
        removed_by_id: a.key.id,
      },
      {
        phone_number: '+15550310002',
        reason: 'asked again',
        source: 'api',
        removal_reason: null,
        removed_by_type: null,
        removed_by_id: null,
      },
    ]);
  });

  /** An admin person of the tenant's organization, invited by its key and signed in. */
  async function signedInAdmin(apiKey: string, name: string) {
    const email = `dnc-${randomUUID()}@clinic.example`;
    const invited = await t
      .http()
      .post('/api/v1/users')
      .set('X-API-Key', apiKey)
      .send({ email, name, role: 'admin' })
      .expect(201);
    const password = 'a long enough password';
    await t
      .http()
      .post('/api/v1/invitations/accept')
      .send({ token: invited.body.invitation.token, password })
      .expect(200);
    const signed = await t.http().post('/api/v1/sessions').send({ email, password }).expect(201);
    const cookie = ([] as string[])
      .concat(signed.headers['set-cookie'] ?? [])
      .find((c) => c.startsWith('ccs_session='))!
      .split(';')[0];
    const csrf = signed.body.session.csrf_token as string;
    const as = <R extends { set(k: string, v: string): R }>(r: R) =>
      r.set('Cookie', cookie).set('X-CSRF-Token', csrf);
    return {
      actor: { type: 'user', id: invited.body.id as string, name } satisfies Actor,
      add: (body: unknown) => as(t.http().post(URL)).send(body as object),
      remove: (body: unknown) => as(t.http().delete(URL)).send(body as object),
      putPolicy: (body: unknown) =>
        as(t.http().put('/api/v1/compliance/policy')).send(body as object),
    };
  }

  it('names a person who adds or removes a number by their name, and a key by its name', async () => {
    const a = await tenant();
    const dana = await signedInAdmin(a.apiKey, 'Dana Reyes');
    const added = await dana.add({
      phone_numbers: [{ phone_number: '+15550330001', reason: 'asked at the front desk' }],
    });
    expect([added.status, added.body]).toEqual([
      200,
      { added: [byApi('+15550330001', 'asked at the front desk', dana.actor)], already_listed: [] },
    ]);
    await a.add({ phone_numbers: [{ phone_number: '+15550330002', reason: 'letter' }] });
    // The person removes what the key added: each is named for what it did.
    const removed = await dana.remove({
      phone_numbers: ['+15550330002'],
      reason: 'consent given again',
    });
    expect([removed.status, removed.body]).toEqual([
      200,
      {
        removed: [
          {
            ...byApi('+15550330002', 'letter', a.key),
            removed: {
              removed_at: expect.stringMatching(ISO),
              reason: 'consent given again',
              removed_by: dana.actor,
            },
          },
        ],
        not_listed: [],
      },
    ]);
    expect((await a.list({ include_removed: true })).body).toEqual({
      phone_numbers: [added.body.added[0], removed.body.removed[0]],
      total: 2,
    });
    expect(
      await t.sql(
        `SELECT added_by_type, added_by_id, added_by_name, removed_by_type, removed_by_id, removed_by_name
           FROM do_not_call_entries WHERE organization_id = $1 ORDER BY id`,
        [a.organizationId],
      ),
    ).toEqual([
      {
        added_by_type: 'user',
        added_by_id: dana.actor.id,
        added_by_name: 'Dana Reyes',
        removed_by_type: null,
        removed_by_id: null,
        removed_by_name: null,
      },
      {
        added_by_type: 'api_key',
        added_by_id: a.key.id,
        added_by_name: a.key.name,
        removed_by_type: 'user',
        removed_by_id: dana.actor.id,
        removed_by_name: 'Dana Reyes',
      },
    ]);
  });

  it('records the person or the key that last replaced the calling-rules policy', async () => {
    const a = await tenant();
    const dana = await signedInAdmin(a.apiKey, 'Dana Reyes');
    const policy = {
      quiet_hours: null,
      state_rules: true,
      max_calls_per_number: { per_24h: 2, per_7d: 5 },
      restricted_dates: [],
      default_time_zone: 'America/Chicago',
    };
    const updatedBy = () =>
      t.sql(
        `SELECT updated_by_type, updated_by_id, updated_by_name
           FROM compliance_policies WHERE organization_id = $1`,
        [a.organizationId],
      );
    expect((await dana.putPolicy(policy)).status).toBe(200);
    expect(await updatedBy()).toEqual([
      { updated_by_type: 'user', updated_by_id: dana.actor.id, updated_by_name: 'Dana Reyes' },
    ]);
    await t
      .http()
      .put('/api/v1/compliance/policy')
      .set('X-API-Key', a.apiKey)
      .send(policy)
      .expect(200);
    expect(await updatedBy()).toEqual([
      { updated_by_type: 'api_key', updated_by_id: a.key.id, updated_by_name: a.key.name },
    ]);
  });

  it("keeps each organization's list to itself", async () => {
    const a = await tenant();
    const b = await tenant();
    await a.add({ phone_numbers: [{ phone_number: '+15550320001', reason: 'letter' }] });
    expect((await b.list()).body).toEqual({ phone_numbers: [], total: 0 });
    expect((await b.list({ include_removed: true, phone_number: '0320001' })).body).toEqual({
      phone_numbers: [],
      total: 0,
    });
    const notTheirs = await b.remove({ phone_numbers: ['+15550320001'], reason: 'not theirs' });
    expect(notTheirs.body).toEqual({ removed: [], not_listed: ['+15550320001'] });
    // B lists the same number on its own account; A's entry is untouched.
    const own = await b.add({ phone_numbers: [{ phone_number: '+15550320001', reason: 'own' }] });
    expect(own.body).toEqual({
      added: [byApi('+15550320001', 'own', b.key)],
      already_listed: [],
    });
    expect((await a.list()).body).toEqual({
      phone_numbers: [byApi('+15550320001', 'letter', a.key)],
      total: 1,
    });
    const anonymous = await t.http().get(URL);
    expect(anonymous.status).toBe(401);
  });

  it('422 at the field for bad numbers, a missing reason and bad paging, with nothing added', async () => {
    const a = await tenant();
    const bad = await a.add({
      phone_numbers: [
        { phone_number: '+15550330001', reason: 'ok' },
        { phone_number: '555-0100', reason: 'too short' },
        { phone_number: '+15550330003' },
        { phone_number: '+15550330004', reason: '' },
      ],
    });
    expect([bad.status, bad.body]).toEqual([
      422,
      {
        detail: [
          {
            type: 'value_error',
            loc: ['body', 'phone_numbers', 1, 'phone_number'],
            msg: `${PHONE_RULE}: 555-0100 has only 7 digits, add the area code`,
            input: '555-0100',
            ctx: { error: {} },
          },
          {
            type: 'missing',
            loc: ['body', 'phone_numbers', 2, 'reason'],
            msg: 'Field required',
            input: { phone_number: '+15550330003' },
          },
          {
            type: 'string_too_short',
            loc: ['body', 'phone_numbers', 3, 'reason'],
            msg: 'String should have at least 1 character',
            input: '',
            ctx: { min_length: 1 },
          },
        ],
      },
    ]);
    expect((await a.list()).body).toEqual({ phone_numbers: [], total: 0 });

    const empty = await a.add({ phone_numbers: [] });
    expect([empty.status, empty.body]).toEqual([
      422,
      {
        detail: [
          {
            type: 'too_short',
            loc: ['body', 'phone_numbers'],
            msg: 'List should have at least 1 item after validation, not 0',
            input: [],
            ctx: { field_type: 'List', min_length: 1, actual_length: 0 },
          },
        ],
      },
    ]);

    const removal = await a.remove({ phone_numbers: ['+15550330001', 'call me', 7] });
    expect([removal.status, removal.body]).toEqual([
      422,
      {
        detail: [
          {
            type: 'value_error',
            loc: ['body', 'phone_numbers', 1],
            msg: PHONE_RULE,
            input: 'call me',
            ctx: { error: {} },
          },
          {
            type: 'string_type',
            loc: ['body', 'phone_numbers', 2],
            msg: 'Input should be a valid string',
            input: 7,
          },
          {
            type: 'missing',
            loc: ['body', 'reason'],
            msg: 'Field required',
            input: { phone_numbers: ['+15550330001', 'call me', 7] },
          },
        ],
      },
    ]);

    // The route's own parameters first, then the limit/skip paging its query inherits (shared with
    // the blacklist numbers' route): the validator reports a DTO's own fields before inherited ones.
    const query = await a.list({
      limit: 0,
      skip: -1,
      phone_number: 'abc',
      include_removed: 'maybe',
    });
    expect([query.status, query.body]).toEqual([
      422,
      {
        detail: [
          {
            type: 'value_error',
            loc: ['query', 'phone_number'],
            msg: 'Value error, phone_number should hold digits of a phone number',
            input: 'abc',
            ctx: { error: {} },
          },
          {
            type: 'bool_parsing',
            loc: ['query', 'include_removed'],
            msg: 'Input should be a valid boolean, unable to interpret input',
            input: 'maybe',
          },
          {
            type: 'greater_than_equal',
            loc: ['query', 'limit'],
            msg: 'Input should be greater than or equal to 1',
            input: '0',
            ctx: { ge: 1 },
          },
          {
            type: 'greater_than_equal',
            loc: ['query', 'skip'],
            msg: 'Input should be greater than or equal to 0',
            input: '-1',
            ctx: { ge: 0 },
          },
        ],
      },
    ]);
  });

  it('a patient who asks not to be called again (simulator ...0005) is listed by the call, with its ids', async () => {
    const a = await tenant();
    const campaign = await t.createCampaign(a.apiKey, {
      max_attempts: 3,
      caller_id: '+15550009999',
    });
    const [targetId] = await t.addTargets(a.apiKey, campaign.id, {
      targets: [{ phone_number: '+1 555 034 0005', input_data: { n: 1 } }],
      launch: true,
    });
    const target = await waitFor(
      async () =>
        (await t.http().get(`/api/v1/targets/${targetId}`).set('X-API-Key', a.apiKey)).body,
      (body) => body.status === 'Finished',
      30_000,
    );
    const [callLogId] = target.call_log_ids as number[];
    expect(target).toMatchObject({
      status: 'Finished',
      resolution: 'unsuccessful',
      category: 'DNC_REQUESTED',
      subcategory: null,
      outcome: 'Asked not to be called again',
      retries: 0,
      call_log_ids: [callLogId],
      categorization: {
        category: 'DNC_REQUESTED',
        subcategory: null,
        resolution: 'unsuccessful',
        outcome: 'DNC_REQUESTED',
        call_log_id: callLogId,
      },
    });
    const log = await t.http().get(`/api/v1/call-logs/${callLogId}`).set('X-API-Key', a.apiKey);
    expect(log.body).toMatchObject({
      to: '+15550340005',
      call_ended_reason: 'customer-asked-not-to-be-called',
    });
    const [ended] = await t.sql<{ ended_at: Date }>(
      `SELECT ended_at FROM call_logs WHERE id = $1`,
      [callLogId],
    );
    expect((await a.list()).body).toEqual({
      phone_numbers: [
        {
          phone_number: '+15550340005',
          reason: 'Asked not to be called again during a call',
          source: {
            type: 'call',
            campaign_id: campaign.id,
            target_id: targetId,
            call_log_id: callLogId,
          },
          // Listed in the completion's transaction, at the call's end.
          created_at: ended.ended_at.toISOString(),
          removed: null,
        },
      ],
      total: 1,
    });
  });
});

describe('do-not-call numbers and the logs (the service as a process, LOG_LEVEL=trace)', () => {
  it('no log line holds a listed number: added, searched, removed, refused, or listed by a call', async () => {
    const database = await createTestDatabase();
    const port = await freePort();
    const key = 'acme-dnc-logs-key-0123456789abcdef0123';
    const service = startProcess('main.ts', {
      PORT: String(port),
      DATABASE_URL: database.url,
      LOG_LEVEL: 'trace',
      DEMO_SEED: 'false',
      BOOTSTRAP_API_KEYS: `acme=${key}`,
      SIMULATED_CALL_SECONDS: '0',
      CALLING_POLL_INTERVAL_SECONDS: '0.1',
      // The call must be placed whatever the hour in the number's zone (quiet hours are tested apart).
      DEFAULT_CALLING_POLICY: 'unrestricted',
    });
    try {
      const base = `http://127.0.0.1:${port}`;
      await waitForHealth(base, service);
      expect(service.exitCode === null ? '' : service.output()).toBe('');
      const send = async (method: string, path: string, body?: unknown) => {
        const res = await fetch(`${base}${path}`, {
          method,
          headers: { 'X-API-Key': key, 'Content-Type': 'application/json' },
          body: body === undefined ? undefined : JSON.stringify(body),
        });
        return { status: res.status, body: (await res.json()) as any };
      };
      // Digits only: a line may hold a number in any form, so look for its distinctive digits.
      const [BY_API, BY_CALL, REFUSED] = ['5550460701', '5550460005', '55504607'];

      const added = await send('POST', URL, {
        phone_numbers: [{ phone_number: '+1 555 046 0701', reason: 'letter' }],
      });
      expect([added.status, added.body.added.length]).toEqual([200, 1]);
      const refused = await send('POST', URL, {
        phone_numbers: [{ phone_number: '55504607', reason: 'too short' }],
      });
      expect(refused.status).toBe(422);
      const searched = await send('GET', `${URL}?phone_number=${BY_API}&include_removed=true`);
      expect(searched.body.total).toBe(1);
      const removed = await send('DELETE', URL, {
        phone_numbers: [`+1${BY_API}`, `+1${BY_CALL}`],
        reason: 'consent given again',
      });
      expect(removed.body.not_listed).toEqual([`+1${BY_CALL}`]);

      const campaign = await send('POST', '/api/v1/campaigns', {
        name: 'DNC',
        type: 'patient',
        max_attempts: 1,
      });
      const targets = await send('POST', `/api/v1/campaigns/${campaign.body.id}/targets`, {
        targets: [{ phone_number: `+1${BY_CALL}` }],
        launch: true,
      });
      expect(targets.status).toBe(200);
      await waitFor(
        async () => (await send('GET', `${URL}?phone_number=${BY_CALL}`)).body.total,
        (total) => total === 1,
        60_000,
      );
      const output = await waitFor(
        async () => service.output(),
        (o) => o.includes('"msg":"call ended"'),
      );
      expect(output).toContain(`/api/v1/compliance/do-not-call`);
      for (const digits of [BY_API, BY_CALL, REFUSED]) expect(output).not.toContain(digits);
    } finally {
      service.kill('SIGTERM');
      await exited(service);
      await database.drop();
    }
  }, 120_000);
});
