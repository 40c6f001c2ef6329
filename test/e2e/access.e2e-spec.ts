import type { Test } from 'supertest';
import { randomUUID } from 'crypto';
import {
  mayDo,
  ORGANIZATION_WIDE,
  PERMISSIONS,
  type Role,
  ROLES,
  roleRefusal,
  scopeRefusal,
} from '../../src/common/auth/access.js';
import { Clock } from '../../src/common/clock/clock.js';
import { USER_ROLES } from '../../src/modules/organization/domain/user.js';
import { FakeClock } from '../../src/testing/fake-clock.js';
import { declaredRoutes, type DeclaredRoute } from '../support/declared-routes.js';
import { createTestApp, TestApp } from '../support/test-app.js';

const NOW = '2026-03-02T12:00:00.000Z';

/** Path parameters filled with ids that name nothing: an allowed call answers 404 or 422, never 403. */
function concretePath(route: DeclaredRoute): string {
  return route.path.replace(/:[A-Za-z_]+/g, () => randomUUID());
}

describe('roles and API keys', () => {
  let t: TestApp;
  let admin: string;
  const clock = new FakeClock(NOW);
  const keys = {} as Record<Role, string>;

  beforeAll(async () => {
    t = await createTestApp({ customize: (b) => b.overrideProvider(Clock).useValue(clock) });
    ({ apiKey: admin } = await t.createOrganization());
    for (const role of ROLES) {
      const res = await t
        .http()
        .post('/api/v1/api-keys')
        .set('X-API-Key', admin)
        .send({ name: `${role} key`, role });
      if (res.status !== 201)
        throw new Error(`${role} key: ${res.status} ${JSON.stringify(res.body)}`);
      keys[role] = res.body.key;
    }
  });
  afterAll(() => t?.close());

  let people = 0;
  /** A person of `role` (of `admin`'s organization), invited, with a password, signed in. */
  async function signedInPerson(role: string, extra: Record<string, unknown> = {}) {
    const email = `matrix-${role}-${++people}@clinic.example`;
    const invited = await t
      .http()
      .post('/api/v1/users')
      .set('X-API-Key', admin)
      .send({ email, name: `Matrix ${role}`, role, ...extra });
    expect(invited.status).toBe(201);
    const password = 'a long enough password';
    await t
      .http()
      .post('/api/v1/invitations/accept')
      .send({ token: invited.body.invitation.token, password })
      .expect(200);
    const res = await t.http().post('/api/v1/sessions').send({ email, password }).expect(201);
    const cookie = ([] as string[]).concat(res.headers['set-cookie'])[0].split(';')[0];
    return { cookie, csrf: res.body.session.csrf_token as string };
  }

  it('finds every route declaring a permission, or public on purpose', () => {
    const routes = declaredRoutes(t.app);
    expect(routes.length).toBeGreaterThan(50);
    const undeclared = routes.filter((r) => !r.isPublic && !r.permission);
    expect(undeclared).toEqual([]);
    const unknown = routes.filter((r) => r.permission && !(r.permission in PERMISSIONS));
    expect(unknown).toEqual([]);
    expect(routes.filter((r) => r.isPublic).map((r) => `${r.method} ${r.path}`)).toEqual([
      'GET /api/v1/health',
      'GET /api/v1/health/live',
      'GET /api/v1/health/ready',
      'POST /api/v1/invitations/accept',
      'POST /api/v1/sessions',
      'GET /api/v1/sso',
      'GET /api/v1/sso/callback',
      'GET /api/v1/sso/login',
      'POST /api/v1/telephony/:connection_id/messages',
      'POST /api/v1/telephony/:connection/events',
      'GET /metrics',
    ]);
  });

  /** Each route called by each credential: a mismatch with the role table, as text. */
  async function roleMatrix(
    credentials: { role: Role; sign: (req: Test) => Test; session?: boolean }[],
  ): Promise<string[]> {
    const routes = declaredRoutes(t.app).filter((r) => !r.isPublic);
    const mismatches: string[] = [];
    for (const route of routes) {
      for (const { role, sign, session } of credentials) {
        const method = route.method.toLowerCase() as 'get' | 'post' | 'put' | 'patch' | 'delete';
        // Signing out would end the session the rest of the matrix uses (sign-in.e2e-spec covers it).
        if (session && route.path === '/api/v1/sessions/current') continue;
        let req = sign(t.http()[method](concretePath(route)));
        if (method !== 'get') req = req.send({});
        const res = await req;
        const allowed = mayDo(role, route.permission!);
        const what = `${role} ${route.method} ${route.path}: ${res.status} ${JSON.stringify(res.body)}`;
        if (allowed && [401, 403, 500].includes(res.status)) mismatches.push(what);
        if (
          !allowed &&
          (res.status !== 403 ||
            JSON.stringify(res.body) !==
              JSON.stringify({ detail: roleRefusal(role, route.permission!) }))
        ) {
          mismatches.push(what);
        }
      }
    }
    return mismatches;
  }

  it('answers each role on each route as the role table says', async () => {
    const credentials = ROLES.map((role) => ({
      role,
      sign: (req: Test) => req.set('X-API-Key', keys[role]),
    }));
    expect(await roleMatrix(credentials)).toEqual([]);
  }, 120_000);

  it('answers a signed-in person of each role on each route as the role table says', async () => {
    const credentials = [];
    for (const role of USER_ROLES) {
      const person = await signedInPerson(role);
      credentials.push({
        role,
        session: true,
        sign: (req: Test) => req.set('Cookie', person.cookie).set('X-CSRF-Token', person.csrf),
      });
    }
    expect(await roleMatrix(credentials)).toEqual([]);
  }, 120_000);

  /** Each route called by a campaign-limited credential: 404 beyond its campaigns, 403 beyond any. */
  async function scopedMatrix(sign: (req: Test) => Test, session = false): Promise<string[]> {
    const mismatches: string[] = [];
    for (const route of declaredRoutes(t.app).filter((r) => !r.isPublic)) {
      const method = route.method.toLowerCase() as 'get' | 'post' | 'put' | 'patch' | 'delete';
      const path = concretePath(route);
      if (session && route.path === '/api/v1/sessions/current') continue;
      let req = sign(t.http()[method](path));
      if (method !== 'get') req = req.send({});
      const res = await req;
      const permission = route.permission!;
      const what = `${route.method} ${route.path}: ${res.status} ${JSON.stringify(res.body)}`;
      const campaignInPath = /\/campaigns\/([^/]+)/.exec(path)?.[1];
      if (ORGANIZATION_WIDE.has(permission)) {
        if (
          JSON.stringify([res.status, res.body]) !==
          JSON.stringify([403, { detail: scopeRefusal(permission) }])
        )
          mismatches.push(what);
      } else if (route.path.includes(':campaign_id')) {
        // The random campaign id is not one of the key's campaigns.
        if (
          JSON.stringify([res.status, res.body]) !==
          JSON.stringify([404, { detail: `Campaign ${campaignInPath} not found` }])
        )
          mismatches.push(what);
      } else if (route.campaignScope) {
        if ([401, 403, 500].includes(res.status)) mismatches.push(what);
      } else if (
        JSON.stringify([res.status, res.body]) !==
        JSON.stringify([403, { detail: scopeRefusal(permission) }])
      ) {
        mismatches.push(what);
      }
    }
    return mismatches;
  }

  it('answers a campaign-limited key on each route: 404 beyond its campaigns, 403 beyond any campaign', async () => {
    const campaign = await t.createCampaign(admin, { name: 'Scoped matrix' });
    const created = await t
      .http()
      .post('/api/v1/api-keys')
      .set('X-API-Key', admin)
      .send({ name: 'matrix scoped', role: 'admin', campaign_ids: [campaign.id] });
    expect(created.status).toBe(201);
    expect(await scopedMatrix((req) => req.set('X-API-Key', created.body.key))).toEqual([]);
  }, 120_000);

  it('answers a campaign-limited person on each route as a campaign-limited key', async () => {
    const campaign = await t.createCampaign(admin, { name: 'Scoped person matrix' });
    const person = await signedInPerson('admin', { campaign_ids: [campaign.id] });
    const sign = (req: Test) => req.set('Cookie', person.cookie).set('X-CSRF-Token', person.csrf);
    expect(await scopedMatrix(sign, true)).toEqual([]);
  }, 120_000);

  it('names the role and what it may not do in a refusal', async () => {
    const res = await t
      .http()
      .put('/api/v1/compliance/policy')
      .set('X-API-Key', keys.operator)
      .send({});
    expect(res.status).toBe(403);
    expect(res.body).toEqual({
      detail: 'The operator role may not change the calling-rules policy (needs compliance.write)',
    });
  });

  it('creates a key shown once, lists keys without secrets, and revokes one', async () => {
    // An organization of its own: the list below is all of its keys.
    const { apiKey: admin, organizationId } = await t.createOrganization();
    const created = await t
      .http()
      .post('/api/v1/api-keys')
      .set('X-API-Key', admin)
      .send({ name: ' EHR ', role: 'integration', expires_at: '2026-04-01T00:00:00Z' });
    expect(created.status).toBe(201);
    const adminRow = (
      await t.sql('SELECT id FROM api_keys WHERE name = $1 AND organization_id = $2', [
        'test',
        organizationId,
      ])
    )[0];
    expect(created.body).toEqual({
      id: expect.any(String),
      name: 'EHR',
      role: 'integration',
      campaign_ids: null,
      key_prefix: created.body.key.slice(0, 10),
      created_at: NOW,
      last_used_at: null,
      expires_at: '2026-04-01T00:00:00.000Z',
      created_by: adminRow.id,
      key: expect.stringMatching(/^ccs_[A-Za-z0-9_-]{43}$/),
    });
    const { key, ...listed } = created.body;
    const used = await t.http().get('/api/v1/call-logs').set('X-API-Key', key);
    expect(used.status).toBe(200);

    const list = await t.http().get('/api/v1/api-keys').set('X-API-Key', admin);
    expect(list.status).toBe(200);
    const mine = list.body.api_keys.find((k: { id: string }) => k.id === listed.id);
    expect(mine).toEqual({ ...listed, last_used_at: NOW });
    expect(JSON.stringify(list.body)).not.toContain(key);
    // Made at one instant of the test's clock: their order among themselves is the ids'.
    expect(list.body.api_keys.map((k: { name: string }) => k.name).sort()).toEqual(['EHR', 'test']);

    const revoked = await t.http().delete(`/api/v1/api-keys/${listed.id}`).set('X-API-Key', admin);
    expect(revoked.status).toBe(200);
    expect(revoked.body).toEqual({ id: listed.id, status: 'revoked' });
    const refused = await t.http().get('/api/v1/call-logs').set('X-API-Key', key);
    expect(refused.status).toBe(401);
    expect(refused.body).toEqual({ detail: 'Invalid API key' });
    const after = await t.http().get('/api/v1/api-keys').set('X-API-Key', admin);
    expect(after.body.api_keys.map((k: { id: string }) => k.id)).not.toContain(listed.id);
  });

  it('refuses an expired key with 401, by the clock', async () => {
    const created = await t
      .http()
      .post('/api/v1/api-keys')
      .set('X-API-Key', admin)
      .send({ name: 'short', role: 'viewer', expires_at: '2026-03-02T13:00:00Z' });
    expect(created.status).toBe(201);
    const before = await t.http().get('/api/v1/campaigns').set('X-API-Key', created.body.key);
    expect(before.status).toBe(200);
    clock.set('2026-03-02T13:00:00.000Z');
    try {
      const after = await t.http().get('/api/v1/campaigns').set('X-API-Key', created.body.key);
      expect(after.status).toBe(401);
      expect(after.body).toEqual({ detail: 'API key expired' });
    } finally {
      clock.set(NOW);
    }
  });

  it('answers 422 FastAPI-style for a bad key request', async () => {
    const res = await t
      .http()
      .post('/api/v1/api-keys')
      .set('X-API-Key', admin)
      .send({ name: '', role: 'root', campaign_ids: ['nope'], expires_at: '2020-01-01T00:00:00Z' });
    expect(res.status).toBe(422);
    expect(res.body).toEqual(BAD_KEY_REQUEST);
    const past = await t
      .http()
      .post('/api/v1/api-keys')
      .set('X-API-Key', admin)
      .send({ name: 'old', role: 'viewer', expires_at: '2020-01-01T00:00:00Z' });
    expect(past.status).toBe(422);
    expect(past.body).toEqual(PAST_EXPIRY);
  });

  it('keeps a campaign-limited key to its campaigns: others are 404, organization-wide work 403', async () => {
    const mine = await t.createCampaign(admin, { name: 'Mine' });
    const theirs = await t.createCampaign(admin, { name: 'Theirs' });
    const [myTarget] = await t.addTargets(admin, mine.id, {
      targets: [{ phone_number: '+15550101001' }],
    });
    const [theirTarget] = await t.addTargets(admin, theirs.id, {
      targets: [{ phone_number: '+15550101002' }],
    });
    const created = await t
      .http()
      .post('/api/v1/api-keys')
      .set('X-API-Key', admin)
      .send({ name: 'scoped', role: 'operator', campaign_ids: [mine.id] });
    expect(created.status).toBe(201);
    expect(created.body.campaign_ids).toEqual([mine.id]);
    const scoped = (r: Test) => r.set('X-API-Key', created.body.key);
    const http = t.http();

    const list = await scoped(http.get('/api/v1/campaigns'));
    expect(list.status).toBe(200);
    expect(list.body.campaigns.map((c: { id: string }) => c.id)).toEqual([mine.id]);
    expect(list.body.page_count).toBe(1);

    expect((await scoped(t.http().get(`/api/v1/campaigns/${mine.id}`))).status).toBe(200);
    const other = await scoped(t.http().get(`/api/v1/campaigns/${theirs.id}`));
    const missing = randomUUID();
    const none = await t.http().get(`/api/v1/campaigns/${missing}`).set('X-API-Key', admin);
    expect(other.status).toBe(404);
    expect(other.body).toEqual({ detail: `Campaign ${theirs.id} not found` });
    expect(none.body).toEqual({ detail: `Campaign ${missing} not found` });

    const theirTargets = await scoped(t.http().get(`/api/v1/campaigns/${theirs.id}/targets`));
    expect(theirTargets.status).toBe(404);
    expect(theirTargets.body).toEqual({ detail: `Campaign ${theirs.id} not found` });
    const myTargets = await scoped(t.http().get(`/api/v1/campaigns/${mine.id}/targets`));
    expect(myTargets.status).toBe(200);
    expect(myTargets.body.targets.map((x: { id: string }) => x.id)).toEqual([myTarget]);

    expect((await scoped(t.http().get(`/api/v1/targets/${myTarget}`))).status).toBe(200);
    for (const [method, path, body] of [
      ['get', `/api/v1/targets/${theirTarget}`, undefined],
      ['get', `/api/v1/targets/${theirTarget}/events`, undefined],
      ['patch', `/api/v1/targets/${theirTarget}`, { input_data: { x: 1 } }],
      ['post', `/api/v1/targets/${theirTarget}/review`, { action: 'done' }],
    ] as const) {
      let req = t.http()[method](path).set('X-API-Key', created.body.key);
      if (body) req = req.send(body);
      const res = await req;
      expect([method, path, res.status, res.body]).toEqual([
        method,
        path,
        404,
        { detail: `Target ${theirTarget} not found` },
      ]);
    }
    const [untouched] = await t.sql('SELECT input_data FROM targets WHERE id = $1', [theirTarget]);
    expect(untouched.input_data).toEqual({});

    const pause = await scoped(t.http().post(`/api/v1/campaigns/${theirs.id}/pause`));
    expect(pause.status).toBe(404);

    const create = await scoped(t.http().post('/api/v1/campaigns')).send({
      name: 'New',
      type: 'patient',
    });
    expect(create.status).toBe(403);
    expect(create.body).toEqual({ detail: scopeRefusal('campaigns.create') });

    const upload = (campaignId: string) =>
      t
        .http()
        .post(`/api/v1/campaigns/${campaignId}/targets/import`)
        .set('X-API-Key', admin)
        .set('Content-Type', 'text/csv')
        .send(Buffer.from('phone_number\n+15550101003\n', 'utf8'));
    const [myImport, theirImport] = [await upload(mine.id), await upload(theirs.id)];
    expect([myImport.status, theirImport.status]).toEqual([200, 200]);
    expect((await scoped(t.http().get(`/api/v1/imports/${myImport.body.id}`))).status).toBe(200);
    const theirRead = await scoped(t.http().get(`/api/v1/imports/${theirImport.body.id}`));
    expect(theirRead.status).toBe(404);
    expect(theirRead.body).toEqual({ detail: `Import ${theirImport.body.id} not found` });

    // Live calls answer for its campaigns only (test/e2e/live-calls.e2e-spec.ts has the lookups).
    const liveCalls = await scoped(t.http().get('/api/v1/live-calls')).query({
      user_phone_number: '+15550101002',
    });
    expect([liveCalls.status, liveCalls.body]).toEqual([404, { detail: 'Live call not found' }]);
  });

  it("refuses campaign_ids that are not the organization's own campaigns: 422 at the id, naming it", async () => {
    const mine = await t.createCampaign(admin, { name: 'Own' });
    const { apiKey: otherAdmin } = await t.createOrganization();
    const foreign = await t.createCampaign(otherAdmin, { name: 'Foreign' });
    const missing = randomUUID();
    const before = await t.sql('SELECT count(*)::int AS n FROM api_keys');
    for (const [ids, index, bad] of [
      [[mine.id, foreign.id], 1, foreign.id],
      [[missing], 0, missing],
      [[mine.id, mine.id, missing, foreign.id], 2, missing],
    ] as const) {
      const res = await t
        .http()
        .post('/api/v1/api-keys')
        .set('X-API-Key', admin)
        .send({ name: 'too wide', role: 'viewer', campaign_ids: ids });
      expect([res.status, res.body]).toEqual([
        422,
        {
          detail: [
            {
              ctx: { error: {} },
              input: bad,
              loc: ['body', 'campaign_ids', index],
              msg: `Value error, campaign ${bad} is not a campaign of this organization`,
              type: 'value_error',
            },
          ],
        },
      ]);
    }
    // No key was made; the organization's own campaign alone is accepted.
    expect(await t.sql('SELECT count(*)::int AS n FROM api_keys')).toEqual(before);
    const ok = await t
      .http()
      .post('/api/v1/api-keys')
      .set('X-API-Key', admin)
      .send({ name: 'own', role: 'viewer', campaign_ids: [mine.id] });
    expect([ok.status, ok.body.campaign_ids]).toEqual([201, [mine.id]]);
  });
});

const BAD_KEY_REQUEST = {
  detail: [
    {
      ctx: { min_length: 1 },
      input: '',
      loc: ['body', 'name'],
      msg: 'String should have at least 1 character',
      type: 'string_too_short',
    },
    {
      ctx: { expected: "'admin', 'operator', 'viewer' or 'integration'" },
      input: 'root',
      loc: ['body', 'role'],
      msg: "Input should be 'admin', 'operator', 'viewer' or 'integration'",
      type: 'enum',
    },
    {
      ctx: { error: 'invalid character: found `n` at 1' },
      input: 'nope',
      loc: ['body', 'campaign_ids', 0],
      msg: 'Input should be a valid UUID, invalid character: found `n` at 1',
      type: 'uuid_parsing',
    },
  ],
};
const PAST_EXPIRY = {
  detail: [
    {
      ctx: { error: {} },
      input: '2020-01-01T00:00:00.000Z',
      loc: ['body', 'expires_at'],
      msg: 'Value error, expires_at must be in the future',
      type: 'value_error',
    },
  ],
};
