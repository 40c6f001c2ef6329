import type { Server } from 'http';
import { oidcEnv, startOidcProvider, type OidcAccount } from '../support/oidc-provider.js';
import { createTestApp, TestApp } from '../support/test-app.js';

const BASE = 'http://localhost:3000';

/** The people the provider knows, and their groups there. */
const ACCOUNTS: Record<string, OidcAccount> = {
  dana: { email: 'Dana@SSO.example', name: 'Dana Reyes', groups: ['staff', 'nurses'] },
  vic: { email: 'vic@sso.example', name: 'Vic', groups: ['staff'] },
  eve: { email: 'eve@sso.example', name: 'Eve', groups: ['visitors'] },
  ada: { email: 'ada@sso.example', name: 'Ada Admin', groups: ['ccs-admins'] },
};

/** A browser of its own: follows the provider's redirects and log-in pages, keeping its cookies. */
async function logInAtProvider(authorizationUrl: string, login: string): Promise<string> {
  const jar = new Map<string, string>();
  const cookie = () => [...jar].map(([k, v]) => `${k}=${v}`).join('; ');
  let url = authorizationUrl;
  for (let hop = 0; hop < 12; hop++) {
    if (url.startsWith(BASE)) return url;
    let res = await fetch(url, { redirect: 'manual', headers: { cookie: cookie() } });
    const remember = (r: globalThis.Response) => {
      for (const c of r.headers.getSetCookie()) {
        const [pair] = c.split(';');
        const eq = pair.indexOf('=');
        jar.set(pair.slice(0, eq), pair.slice(eq + 1));
      }
    };
    remember(res);
    if (res.status === 200) {
      const page = await res.text();
      const form = page.includes('value="login"')
        ? new URLSearchParams({ prompt: 'login', login, password: 'any' })
        : new URLSearchParams({ prompt: 'consent' });
      res = await fetch(url, {
        method: 'POST',
        redirect: 'manual',
        headers: { cookie: cookie(), 'content-type': 'application/x-www-form-urlencoded' },
        body: form.toString(),
      });
      remember(res);
    }
    const location = res.headers.get('location');
    if (!location)
      throw new Error(`provider answered ${res.status} at ${url}: ${await res.text()}`);
    url = new URL(location, url).href;
  }
  throw new Error('the provider never sent the browser back');
}

describe('single sign-on over OpenID Connect', () => {
  let t: TestApp;
  let provider: { issuer: string; server: Server };

  const organizationName = `SSO clinic ${process.pid}-${Date.now()}`;

  beforeAll(async () => {
    provider = await startOidcProvider(ACCOUNTS, `${BASE}/api/v1/sso/callback`);
    t = await createTestApp({ env: oidcEnv(provider.issuer, organizationName) });
  });
  afterAll(async () => {
    await t?.close();
    provider?.server.close();
  });

  /** Starts at our login route, logs in at the provider, and comes back to our callback. */
  async function signOn(login: string) {
    const start = await t.http().get('/api/v1/sso/login');
    expect(start.status).toBe(302);
    const pending = ([] as string[]).concat(start.headers['set-cookie'])[0];
    expect(pending).toMatch(
      /^ccs_sso=[A-Za-z0-9_-]+; Path=\/api\/v1\/sso; HttpOnly; Secure; SameSite=Lax; Max-Age=600$/,
    );
    const back = new URL(await logInAtProvider(start.headers.location, login));
    return t
      .http()
      .get(back.pathname + back.search)
      .set('Cookie', pending.split(';')[0]);
  }

  it('says single sign-on is on', async () => {
    const res = await t.http().get('/api/v1/sso');
    expect(res.body).toEqual({ enabled: true, login_url: '/api/v1/sso/login' });
  });

  it('sends the browser to the provider with PKCE, state and nonce', async () => {
    const res = await t.http().get('/api/v1/sso/login');
    const url = new URL(res.headers.location);
    expect(url.origin + url.pathname).toBe(`${provider.issuer}/auth`);
    expect(Object.fromEntries(url.searchParams)).toEqual({
      client_id: 'ccs',
      response_type: 'code',
      redirect_uri: `${BASE}/api/v1/sso/callback`,
      scope: 'openid email profile groups',
      state: expect.any(String),
      nonce: expect.any(String),
      code_challenge: expect.any(String),
      code_challenge_method: 'S256',
    });
  });

  it('signs a person in with the role their groups map to, creating them the first time', async () => {
    const res = await signOn('dana');
    expect([res.status, res.headers.location]).toEqual([302, '/console/']);
    const cookies = ([] as string[]).concat(res.headers['set-cookie']);
    expect(cookies).toEqual([
      'ccs_sso=; Path=/api/v1/sso; HttpOnly; Secure; SameSite=Lax; Max-Age=0',
      expect.stringMatching(
        /^ccs_session=[A-Za-z0-9_-]{43}; Path=\/; HttpOnly; Secure; SameSite=Strict$/,
      ),
    ]);
    const me = await t.http().get('/api/v1/me').set('Cookie', cookies[1].split(';')[0]);
    expect(me.status).toBe(200);
    expect(me.body).toMatchObject({
      kind: 'user',
      name: 'Dana Reyes',
      email: 'dana@sso.example',
      role: 'operator',
      campaign_ids: null,
    });
    // Again: the same person, not a second one.
    const again = await signOn('dana');
    expect(again.status).toBe(302);
    const rows = await t.sql(`SELECT email, role, password_hash FROM users WHERE email = $1`, [
      'dana@sso.example',
    ]);
    expect(rows).toEqual([{ email: 'dana@sso.example', role: 'operator', password_hash: null }]);
  });

  it('maps a viewer group to viewer, and refuses someone whose groups give no role', async () => {
    const vic = await signOn('vic');
    expect(vic.status).toBe(302);
    const eve = await signOn('eve');
    expect([eve.status, eve.body]).toEqual([
      403,
      {
        detail:
          'The identity provider grants eve@sso.example none of the groups OIDC_ROLE_MAP gives a role',
      },
    ]);
  });

  it('refuses a callback that was not started in this browser, or whose state was changed', async () => {
    const start = await t.http().get('/api/v1/sso/login');
    const back = new URL(await logInAtProvider(start.headers.location, 'dana'));
    const noCookie = await t.http().get(back.pathname + back.search);
    expect([noCookie.status, noCookie.body]).toEqual([
      401,
      { detail: 'Single sign-on was not started in this browser: start again' },
    ]);
    back.searchParams.set('state', 'forged');
    const forged = await t
      .http()
      .get(back.pathname + back.search)
      .set('Cookie', ([] as string[]).concat(start.headers['set-cookie'])[0].split(';')[0]);
    expect(forged.status).toBe(401);
    expect(forged.body.detail).toMatch(/^Single sign-on failed: /);
  });

  it('records every single sign-on in the trail: the person, or who the provider named, and why not', async () => {
    const ada = await signOn('ada');
    expect(ada.status).toBe(302);
    const cookie = ([] as string[]).concat(ada.headers['set-cookie'])[1].split(';')[0];
    const [{ id: organizationId }] = await t.sql<{ id: string }>(
      'SELECT id FROM organizations WHERE name = $1',
      [organizationName],
    );
    const [{ id: adaId }] = await t.sql<{ id: string }>('SELECT id FROM users WHERE email = $1', [
      'ada@sso.example',
    ]);
    const [{ seq: after }] = await t.sql<{ seq: string }>(
      'SELECT max(seq) AS seq FROM audit_events WHERE organization_id = $1',
      [organizationId],
    );
    expect((await signOn('eve')).status).toBe(403);
    const start = await t.http().get('/api/v1/sso/login');
    const back = new URL(await logInAtProvider(start.headers.location, 'dana'));
    expect((await t.http().get(back.pathname + back.search)).status).toBe(401);
    expect((await signOn('ada')).status).toBe(302);

    const res = await t.http().get('/api/v1/audit-events?limit=1000').set('Cookie', cookie);
    expect(res.status).toBe(200);
    const event = (fields: Record<string, unknown>) => ({
      id: expect.any(String),
      seq: expect.any(Number),
      occurred_at: expect.any(String),
      resource_type: 'user',
      campaign_id: null,
      resource_ids: [],
      client_address: expect.any(String),
      request_id: null,
      changed_fields: [],
      changes: null,
      prev_hash: expect.stringMatching(/^[0-9a-f]{64}$/),
      hash: expect.stringMatching(/^[0-9a-f]{64}$/),
      ...fields,
    });
    expect(
      res.body.audit_events.filter(
        (e: { seq: number; action: string }) =>
          e.seq > Number(after) && e.action.startsWith('session.'),
      ),
    ).toEqual([
      event({
        actor: { kind: 'unknown', id: 'eve@sso.example', name: 'Eve', role: '' },
        action: 'session.sign_in_failed',
        resource_id: null,
        outcome: 'refused',
        detail: {
          method: 'sso',
          reason:
            'The identity provider grants eve@sso.example none of the groups OIDC_ROLE_MAP gives a role',
        },
      }),
      event({
        actor: { kind: 'unknown', id: '', name: '', role: '' },
        action: 'session.sign_in_failed',
        resource_id: null,
        outcome: 'refused',
        detail: {
          method: 'sso',
          reason: 'Single sign-on was not started in this browser: start again',
        },
      }),
      event({
        actor: { kind: 'user', id: adaId, name: 'Ada Admin', role: 'admin' },
        action: 'session.sign_in',
        resource_id: adaId,
        outcome: 'allowed',
        detail: { method: 'sso' },
      }),
    ]);
  });
});
