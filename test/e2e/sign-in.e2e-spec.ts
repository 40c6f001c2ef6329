import { randomBytes } from 'crypto';
import type { Response } from 'supertest';
import { Clock } from '../../src/common/clock/clock.js';
import { roleRefusal } from '../../src/common/auth/access.js';
import { totpCode } from '../../src/modules/organization/domain/totp.js';
import { FakeClock } from '../../src/testing/fake-clock.js';
import { createTestApp, TestApp } from '../support/test-app.js';

const NOW = '2026-03-02T12:00:00.000Z';
const MINUTE = 60_000;
const PASSWORD = 'correct horse battery staple';
const CSRF_REFUSAL =
  'A signed-in request that changes something must carry the X-CSRF-Token header given at sign-in';

/** A signed-in person: the cookie header to send and the CSRF token to send with changes. */
interface Signed {
  cookie: string;
  csrf: string;
  body: Record<string, unknown>;
}

function sessionCookie(res: Response): string {
  const set = ([] as string[]).concat(res.headers['set-cookie'] ?? []);
  const cookie = set.find((c) => c.startsWith('ccs_session='));
  if (!cookie) throw new Error(`no session cookie: ${res.status} ${JSON.stringify(res.body)}`);
  return cookie.split(';')[0];
}

describe('people who sign in', () => {
  let t: TestApp;
  let admin: string;
  let organizationId: string;
  let n = 0;
  const clock = new FakeClock(NOW);

  beforeAll(async () => {
    t = await createTestApp({
      env: {
        SIGN_IN_FAILURES_PER_ACCOUNT: '3',
        SIGN_IN_FAILURES_PER_ADDRESS: '8',
        // TOTP secrets are sealed with it (PostgreSQL has no generated key, as the demo's PGlite has).
        SECRETS_KEY: randomBytes(32).toString('base64'),
      },
      customize: (b) => b.overrideProvider(Clock).useValue(clock),
    });
    ({ apiKey: admin, organizationId } = await t.createOrganization());
  });
  afterAll(() => t?.close());
  // Every test starts with no lockout left over by another.
  beforeEach(() => clock.advance(60 * MINUTE));

  const email = (role: string) => `${role}-${++n}@clinic.example`;

  async function invite(body: Record<string, unknown>, key = admin) {
    const res = await t.http().post('/api/v1/users').set('X-API-Key', key).send(body);
    if (res.status !== 201) throw new Error(`invite: ${res.status} ${JSON.stringify(res.body)}`);
    return res.body;
  }

  function signIn(address: string, password = PASSWORD, totpCode?: string) {
    return t
      .http()
      .post('/api/v1/sessions')
      .send({ email: address, password, ...(totpCode ? { totp_code: totpCode } : {}) });
  }

  /** Invites, sets the password and signs in a person of `role`. */
  async function person(
    role: string,
    extra: Record<string, unknown> = {},
    key = admin,
  ): Promise<Signed> {
    const address = email(role);
    const invited = await invite({ email: address, name: `A ${role}`, role, ...extra }, key);
    const accepted = await t
      .http()
      .post('/api/v1/invitations/accept')
      .send({ token: invited.invitation.token, password: PASSWORD });
    expect(accepted.status).toBe(200);
    const res = await signIn(address);
    expect(res.status).toBe(201);
    return { cookie: sessionCookie(res), csrf: res.body.session.csrf_token, body: res.body };
  }

  it('invites a person with a one-time link, who sets a password and signs in', async () => {
    const address = email('operator');
    const invited = await invite({ email: address, name: 'Dana Reyes', role: 'operator' });
    const expiresAt = new Date(clock.now().getTime() + 72 * 60 * MINUTE).toISOString();
    expect(invited).toEqual({
      id: expect.any(String),
      email: address,
      name: 'Dana Reyes',
      role: 'operator',
      campaign_ids: null,
      status: 'invited',
      created_at: clock.now().toISOString(),
      deactivated_at: null,
      invitation: {
        url: `http://localhost:3000/console/#/invitation/${invited.invitation.token}`,
        token: expect.stringMatching(/^[A-Za-z0-9_-]{43}$/),
        expires_at: expiresAt,
      },
    });
    // Not yet: an invited person has no password.
    expect((await signIn(address)).status).toBe(401);

    const accepted = await t
      .http()
      .post('/api/v1/invitations/accept')
      .send({ token: invited.invitation.token, password: PASSWORD });
    expect(accepted.status).toBe(200);
    const { invitation: _link, ...user } = invited;
    expect(accepted.body).toEqual({ ...user, status: 'active' });

    const res = await signIn(address.toUpperCase());
    expect(res.status).toBe(201);
    const setCookie = ([] as string[]).concat(res.headers['set-cookie']);
    expect(setCookie).toEqual([
      expect.stringMatching(
        /^ccs_session=[A-Za-z0-9_-]{43}; Path=\/; HttpOnly; Secure; SameSite=Strict$/,
      ),
    ]);
    const expected = {
      kind: 'user',
      id: invited.id,
      name: 'Dana Reyes',
      email: address,
      role: 'operator',
      campaign_ids: null,
      organization_id: organizationId,
      permissions: expect.arrayContaining(['campaigns.create', 'self.session']),
      session: {
        csrf_token: expect.stringMatching(/^[A-Za-z0-9_-]{43}$/),
        idle_expires_at: new Date(clock.now().getTime() + 15 * MINUTE).toISOString(),
        expires_at: new Date(clock.now().getTime() + 12 * 60 * MINUTE).toISOString(),
      },
      totp: { enabled: false, required: false },
    };
    expect(res.body).toEqual(expected);
    expect(res.body.permissions).not.toContain('users.manage');

    const me = await t.http().get('/api/v1/me').set('Cookie', sessionCookie(res));
    expect(me.status).toBe(200);
    expect(me.body).toEqual({ ...expected, session: res.body.session });

    const listed = await t.http().get('/api/v1/users').set('X-API-Key', admin);
    expect(listed.status).toBe(200);
    expect(listed.body.users).toContainEqual({ ...user, status: 'active' });
  });

  it('answers GET /me for a key too', async () => {
    const res = await t.http().get('/api/v1/me').set('X-API-Key', admin);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      kind: 'api_key',
      id: expect.any(String),
      name: 'test',
      email: null,
      role: 'admin',
      campaign_ids: null,
      organization_id: organizationId,
      permissions: expect.arrayContaining(['users.manage', 'api_keys.manage']),
      session: null,
      totp: null,
    });
  });

  it('uses an invitation once, and never after it expires', async () => {
    const invited = await invite({ email: email('viewer'), name: 'Vic', role: 'viewer' });
    const accept = (token: string) =>
      t.http().post('/api/v1/invitations/accept').send({ token, password: PASSWORD });
    const gone = {
      detail: 'This invitation is unknown, used or expired: ask an admin for a new one',
    };
    expect((await accept(invited.invitation.token)).status).toBe(200);
    const reused = await accept(invited.invitation.token);
    expect([reused.status, reused.body]).toEqual([404, gone]);

    const late = await invite({ email: email('viewer'), name: 'Late', role: 'viewer' });
    clock.advance(72 * 60 * MINUTE);
    const expired = await accept(late.invitation.token);
    expect([expired.status, expired.body]).toEqual([404, gone]);

    // A new link works; the one it replaces does not.
    const again = await t
      .http()
      .post(`/api/v1/users/${late.id}/invitations`)
      .set('X-API-Key', admin);
    expect(again.status).toBe(201);
    expect(again.body.invitation.token).not.toBe(late.invitation.token);
    const other = await t
      .http()
      .post(`/api/v1/users/${late.id}/invitations`)
      .set('X-API-Key', admin);
    expect((await accept(again.body.invitation.token)).status).toBe(404);
    expect((await accept(other.body.invitation.token)).status).toBe(200);
  });

  it('refuses a short password, the integration role and a taken email', async () => {
    const invited = await invite({ email: email('viewer'), name: 'Short', role: 'viewer' });
    const short = await t
      .http()
      .post('/api/v1/invitations/accept')
      .send({ token: invited.invitation.token, password: 'too short' });
    expect(short.status).toBe(422);
    expect(short.body).toEqual({
      detail: [
        {
          type: 'value_error',
          loc: ['body', 'password'],
          msg: 'Value error, password must have at least 12 characters',
          input: null,
          ctx: { error: {} },
        },
      ],
    });
    const integration = await t
      .http()
      .post('/api/v1/users')
      .set('X-API-Key', admin)
      .send({ email: email('x'), name: 'Robot', role: 'integration' });
    expect(integration.status).toBe(422);
    expect(integration.body.detail).toEqual([
      expect.objectContaining({ type: 'enum', loc: ['body', 'role'], input: 'integration' }),
    ]);
    const taken = await t
      .http()
      .post('/api/v1/users')
      .set('X-API-Key', admin)
      .send({ email: invited.email.toUpperCase(), name: 'Twin', role: 'viewer' });
    expect([taken.status, taken.body]).toEqual([
      409,
      { detail: `A person with the email ${invited.email} already exists` },
    ]);
  });

  it('answers a wrong password and an unknown email alike, and locks the account after repeated failures', async () => {
    const signed = await person('operator');
    const address = signed.body.email as string;
    const wrong = await signIn(address, 'not the password at all');
    const unknown = await signIn(email('nobody'));
    expect([wrong.status, wrong.body]).toEqual([401, { detail: 'Wrong email or password' }]);
    expect([unknown.status, unknown.body]).toEqual([401, { detail: 'Wrong email or password' }]);
    expect(await signIn(address, 'wrong again, twice')).toHaveProperty('status', 401);
    expect(await signIn(address, 'and a third time')).toHaveProperty('status', 401);
    // Locked: even the right password is refused until the lockout ends.
    const locked = await signIn(address);
    expect([locked.status, locked.body]).toEqual([
      429,
      { detail: 'Too many failed sign-ins: try again in 15 minute(s)' },
    ]);
    expect(locked.headers['retry-after']).toBe('900');
    // Other people are not locked out by it.
    expect((await signIn(email('nobody-else'))).status).toBe(401);
    clock.advance(15 * MINUTE);
    expect((await signIn(address)).status).toBe(201);
  });

  it('locks a client address after repeated failures, whatever the accounts', async () => {
    const signed = await person('viewer');
    for (let i = 0; i < 8; i++) {
      expect((await signIn(email('guess'), 'guessing passwords')).status).toBe(401);
    }
    const locked = await signIn(signed.body.email as string);
    expect(locked.status).toBe(429);
    clock.advance(15 * MINUTE);
    expect((await signIn(signed.body.email as string)).status).toBe(201);
  });

  it('refuses a signed-in change without the CSRF token, and takes it with', async () => {
    const signed = await person('operator');
    const create = () => t.http().post('/api/v1/campaigns').set('Cookie', signed.cookie);
    const refused = await create().send({ name: 'No token', type: 'patient' });
    expect([refused.status, refused.body]).toEqual([403, { detail: CSRF_REFUSAL }]);
    const wrong = await create()
      .set('X-CSRF-Token', 'x'.repeat(43))
      .send({ name: 'Wrong token', type: 'patient' });
    expect([wrong.status, wrong.body]).toEqual([403, { detail: CSRF_REFUSAL }]);
    const made = await create()
      .set('X-CSRF-Token', signed.csrf)
      .send({ name: 'With token', type: 'patient' });
    expect(made.status).toBe(201);
    // Reads need none.
    const read = await t
      .http()
      .get(`/api/v1/campaigns/${made.body.id}`)
      .set('Cookie', signed.cookie);
    expect(read.status).toBe(200);
    expect(await t.sql(`SELECT count(*)::int AS n FROM campaigns WHERE name = 'No token'`)).toEqual(
      [{ n: 0 }],
    );
  });

  it('ends a session after 15 minutes idle', async () => {
    const signed = await person('viewer');
    const me = () => t.http().get('/api/v1/me').set('Cookie', signed.cookie);
    clock.advance(14 * MINUTE);
    expect((await me()).status).toBe(200);
    clock.advance(14 * MINUTE);
    expect((await me()).status).toBe(200);
    clock.advance(15 * MINUTE);
    const ended = await me();
    expect([ended.status, ended.body]).toEqual([
      401,
      { detail: 'Your session has ended: sign in again' },
    ]);
  });

  it('ends a session 12 hours after sign-in, however busy', async () => {
    const signed = await person('viewer');
    const me = () => t.http().get('/api/v1/me').set('Cookie', signed.cookie);
    for (let minutes = 10; minutes < 12 * 60; minutes += 10) {
      clock.advance(10 * MINUTE);
      const res = await me();
      if (res.status !== 200) throw new Error(`at ${minutes} minutes: ${res.status}`);
    }
    clock.advance(10 * MINUTE);
    expect((await me()).status).toBe(401);
  });

  it('signs out: the cookie is cleared and the session no longer works', async () => {
    const signed = await person('viewer');
    const out = await t
      .http()
      .delete('/api/v1/sessions/current')
      .set('Cookie', signed.cookie)
      .set('X-CSRF-Token', signed.csrf);
    expect([out.status, out.body]).toEqual([200, { status: 'signed_out' }]);
    expect(out.headers['set-cookie']).toEqual([
      'ccs_session=; Path=/; HttpOnly; Secure; SameSite=Strict; Max-Age=0',
    ]);
    expect((await t.http().get('/api/v1/me').set('Cookie', signed.cookie)).status).toBe(401);
  });

  it('holds a person to their role and campaigns, and follows changes at once', async () => {
    const mine = await t.createCampaign(admin, { name: 'Mine' });
    const theirs = await t.createCampaign(admin, { name: 'Theirs' });
    const signed = await person('viewer', { campaign_ids: [mine.id] });
    const get = (id: string) =>
      t.http().get(`/api/v1/campaigns/${id}`).set('Cookie', signed.cookie);
    expect((await get(mine.id)).status).toBe(200);
    expect(await get(theirs.id).then((r) => [r.status, r.body])).toEqual([
      404,
      { detail: `Campaign ${theirs.id} not found` },
    ]);
    const refused = await t
      .http()
      .post(`/api/v1/campaigns/${mine.id}/pause`)
      .set('Cookie', signed.cookie)
      .set('X-CSRF-Token', signed.csrf);
    expect([refused.status, refused.body]).toEqual([
      403,
      { detail: roleRefusal('viewer', 'campaigns.control') },
    ]);

    const changed = await t
      .http()
      .patch(`/api/v1/users/${signed.body.id}`)
      .set('X-API-Key', admin)
      .send({ role: 'operator', campaign_ids: null });
    expect(changed.status).toBe(200);
    expect(changed.body).toMatchObject({ role: 'operator', campaign_ids: null, status: 'active' });
    expect((await get(theirs.id)).status).toBe(200);
    const me = await t.http().get('/api/v1/me').set('Cookie', signed.cookie);
    expect(me.body).toMatchObject({ role: 'operator', campaign_ids: null });
  });

  it('deactivates a person: their session ends and they cannot sign in again', async () => {
    const signed = await person('operator');
    const gone = await t.http().delete(`/api/v1/users/${signed.body.id}`).set('X-API-Key', admin);
    expect(gone.status).toBe(200);
    expect(gone.body).toMatchObject({
      id: signed.body.id,
      status: 'deactivated',
      deactivated_at: clock.now().toISOString(),
    });
    expect((await t.http().get('/api/v1/me').set('Cookie', signed.cookie)).status).toBe(401);
    expect((await signIn(signed.body.email as string)).status).toBe(401);
    const again = await t.http().delete(`/api/v1/users/${signed.body.id}`).set('X-API-Key', admin);
    expect([again.status, again.body]).toEqual([
      404,
      { detail: `User ${signed.body.id} not found` },
    ]);
  });

  it('lets an admin person manage people with the session, and keeps others from it', async () => {
    const boss = await person('admin');
    const res = await t
      .http()
      .post('/api/v1/users')
      .set('Cookie', boss.cookie)
      .set('X-CSRF-Token', boss.csrf)
      .send({ email: email('viewer'), name: 'By a person', role: 'viewer' });
    expect(res.status).toBe(201);
    const operator = await person('operator');
    const refused = await t.http().get('/api/v1/users').set('Cookie', operator.cookie);
    expect([refused.status, refused.body]).toEqual([
      403,
      { detail: roleRefusal('operator', 'users.manage') },
    ]);
    // Another organization's admin never learns the person exists.
    const { apiKey: stranger } = await t.createOrganization();
    const hidden = await t
      .http()
      .patch(`/api/v1/users/${operator.body.id}`)
      .set('X-API-Key', stranger)
      .send({ role: 'admin' });
    expect([hidden.status, hidden.body]).toEqual([
      404,
      { detail: `User ${operator.body.id} not found` },
    ]);
  });

  describe('a second factor (TOTP)', () => {
    const TOTP_CODE_NEEDED =
      'Enter the 6-digit code of your authenticator app as totp_code: your account has a second factor';
    const WRONG_TOTP_CODE = 'Wrong or already used code from the authenticator app';

    async function enrol(signed: Signed): Promise<string> {
      const started = await t
        .http()
        .post('/api/v1/me/totp')
        .set('Cookie', signed.cookie)
        .set('X-CSRF-Token', signed.csrf);
      expect(started.status).toBe(201);
      expect(started.body).toEqual({
        secret: expect.stringMatching(/^[A-Z2-7]{32}$/),
        otpauth_uri: `otpauth://totp/Campaign%20Calling%20Service:${encodeURIComponent(
          signed.body.email as string,
        )}?issuer=Campaign%20Calling%20Service&secret=${started.body.secret}&algorithm=SHA1&digits=6&period=30`,
      });
      const confirmed = await t
        .http()
        .post('/api/v1/me/totp/confirm')
        .set('Cookie', signed.cookie)
        .set('X-CSRF-Token', signed.csrf)
        .send({ code: totpCode(started.body.secret, clock.now()) });
      expect([confirmed.status, confirmed.body]).toEqual([200, { totp_enabled: true }]);
      return started.body.secret;
    }

    it('is set up with a code from the app, then asked for at every sign-in, each code once', async () => {
      const signed = await person('operator');
      const wrong = await t
        .http()
        .post('/api/v1/me/totp')
        .set('Cookie', signed.cookie)
        .set('X-CSRF-Token', signed.csrf);
      const refused = await t
        .http()
        .post('/api/v1/me/totp/confirm')
        .set('Cookie', signed.cookie)
        .set('X-CSRF-Token', signed.csrf)
        .send({
          code: '000000' === totpCode(wrong.body.secret, clock.now()) ? '111111' : '000000',
        });
      expect(refused.status).toBe(422);
      expect(refused.body.detail[0]).toMatchObject({
        loc: ['body', 'code'],
        msg: 'Value error, Wrong code: enter the 6 digits your app shows now',
      });

      const secret = await enrol(signed);
      const me = await t.http().get('/api/v1/me').set('Cookie', signed.cookie);
      expect(me.body.totp).toEqual({ enabled: true, required: false });

      const address = signed.body.email as string;
      const noCode = await signIn(address);
      expect([noCode.status, noCode.body]).toEqual([401, { detail: TOTP_CODE_NEEDED }]);
      // The code that confirmed the set-up was used: not again.
      const replayed = await signIn(address, PASSWORD, totpCode(secret, clock.now()));
      expect([replayed.status, replayed.body]).toEqual([401, { detail: WRONG_TOTP_CODE }]);
      clock.advance(30_000);
      const code = totpCode(secret, clock.now());
      const ok = await signIn(address, PASSWORD, code);
      expect(ok.status).toBe(201);
      expect(ok.body.totp).toEqual({ enabled: true, required: false });
      expect((await signIn(address, PASSWORD, code)).body).toEqual({ detail: WRONG_TOTP_CODE });
      // A wrong password is refused whatever the code.
      clock.advance(30_000);
      const badPassword = await signIn(address, 'not the password', totpCode(secret, clock.now()));
      expect(badPassword.body).toEqual({ detail: 'Wrong email or password' });

      // An admin resets it (a lost phone): the password alone signs in again.
      const reset = await t
        .http()
        .delete(`/api/v1/users/${signed.body.id}/totp`)
        .set('X-API-Key', admin);
      expect([reset.status, reset.body]).toEqual([200, { totp_enabled: false }]);
      expect((await signIn(address)).status).toBe(201);
    });

    it('stores the secret sealed under SECRETS_KEY, and still reads one stored plain before', async () => {
      const signed = await person('operator');
      const secret = await enrol(signed);
      const stored = () =>
        t.sql<{ totp_secret: string; totp_secret_key_id: string | null }>(
          'SELECT totp_secret, totp_secret_key_id FROM users WHERE id = $1',
          [signed.body.id],
        );
      const [sealed] = await stored();
      expect(sealed).toEqual({
        totp_secret: expect.stringMatching(/^v1:[A-Za-z0-9+/=]+:[A-Za-z0-9+/=]+:[A-Za-z0-9+/=]+$/),
        totp_secret_key_id: expect.stringMatching(/^[0-9a-f]{16}$/),
      });
      expect(sealed.totp_secret).not.toContain(secret);
      expect(
        Buffer.from(sealed.totp_secret.split(':')[3], 'base64').toString('latin1'),
      ).not.toContain(secret);
      const address = signed.body.email as string;
      clock.advance(30_000);
      expect((await signIn(address, PASSWORD, totpCode(secret, clock.now()))).status).toBe(201);
      // A secret stored before sealing (plain base32, no key id) keeps working.
      await t.sql('UPDATE users SET totp_secret = $2, totp_secret_key_id = NULL WHERE id = $1', [
        signed.body.id,
        secret,
      ]);
      clock.advance(30_000);
      expect((await signIn(address, PASSWORD, totpCode(secret, clock.now()))).status).toBe(201);
    });

    it('answers a key that asks to set one up with 409', async () => {
      const res = await t.http().post('/api/v1/me/totp').set('X-API-Key', admin);
      expect([res.status, res.body]).toEqual([
        409,
        { detail: 'An API key has no second factor: only a signed-in person sets one up' },
      ]);
    });

    it('when the organization requires it, lets a person without one only set it up', async () => {
      const { apiKey: strict } = await t.createOrganization();
      const policy = await t
        .http()
        .put('/api/v1/sign-in-policy')
        .set('X-API-Key', strict)
        .send({ require_totp: true });
      expect([policy.status, policy.body]).toEqual([200, { require_totp: true }]);
      expect((await t.http().get('/api/v1/sign-in-policy').set('X-API-Key', strict)).body).toEqual({
        require_totp: true,
      });

      const signed = await person('operator', {}, strict);
      expect(signed.body.totp).toEqual({ enabled: false, required: true });
      const blocked = await t.http().get('/api/v1/campaigns').set('Cookie', signed.cookie);
      expect([blocked.status, blocked.body]).toEqual([
        403,
        {
          detail:
            'Your organization requires a second factor: set it up (POST /api/v1/me/totp) before anything else',
        },
      ]);
      await enrol(signed);
      expect((await t.http().get('/api/v1/campaigns').set('Cookie', signed.cookie)).status).toBe(
        200,
      );
    });
  });

  describe('in the audit trail', () => {
    const HASH = expect.stringMatching(/^[0-9a-f]{64}$/);

    /** The events about person `id` with one of `actions`, oldest first, as the API answers them. */
    async function eventsAbout(id: string, actions: string[]) {
      const res = await t
        .http()
        .get(`/api/v1/audit-events?resource_id=${id}&limit=1000`)
        .set('X-API-Key', admin);
      expect(res.status).toBe(200);
      return res.body.audit_events.filter((e: { action: string }) => actions.includes(e.action));
    }
    const event = (user: { id: string; name: string; role: string }, fields: object) => ({
      id: expect.any(String),
      seq: expect.any(Number),
      occurred_at: clock.now().toISOString(),
      actor: { kind: 'user', id: user.id, name: user.name, role: user.role },
      resource_type: 'user',
      resource_id: user.id,
      campaign_id: null,
      resource_ids: [],
      outcome: 'allowed',
      client_address: expect.any(String),
      request_id: null,
      changed_fields: [],
      changes: null,
      detail: null,
      prev_hash: HASH,
      hash: HASH,
      ...fields,
    });

    it('records the password set through an invitation, a failed and an allowed sign-in', async () => {
      const address = email('viewer');
      const invited = await invite({ email: address, name: 'Lee Park', role: 'viewer' });
      const lee = { id: invited.id as string, name: 'Lee Park', role: 'viewer' };
      await t
        .http()
        .post('/api/v1/invitations/accept')
        .send({ token: invited.invitation.token, password: PASSWORD })
        .expect(200);
      expect((await signIn(address, 'not the password')).status).toBe(401);
      expect((await signIn(address)).status).toBe(201);
      const [accepted, failed, signedIn] = await eventsAbout(lee.id, [
        'invitation.accept',
        'session.sign_in_failed',
        'session.sign_in',
      ]);
      expect([accepted, failed, signedIn]).toEqual([
        event(lee, { action: 'invitation.accept', changed_fields: ['password'] }),
        event(lee, {
          action: 'session.sign_in_failed',
          outcome: 'refused',
          detail: { method: 'password', reason: 'Wrong email or password' },
        }),
        event(lee, { action: 'session.sign_in', detail: { method: 'password' } }),
      ]);
      expect([failed.seq, signedIn.seq]).toEqual([accepted.seq + 1, accepted.seq + 2]);
    });

    it('records the moment repeated failures lock the account, once', async () => {
      const signed = await person('operator');
      const dana = { id: signed.body.id as string, name: 'A operator', role: 'operator' };
      const address = signed.body.email as string;
      for (let i = 0; i < 3; i++) expect((await signIn(address, 'wrong')).status).toBe(401);
      // Locked: refused before the password is looked at, and no second lockout event.
      expect((await signIn(address, 'wrong')).status).toBe(429);
      const events = await eventsAbout(dana.id, ['session.sign_in_failed', 'session.locked']);
      const failure = event(dana, {
        action: 'session.sign_in_failed',
        outcome: 'refused',
        detail: { method: 'password', reason: 'Wrong email or password' },
      });
      expect(events).toEqual([
        failure,
        failure,
        failure,
        event(dana, {
          action: 'session.locked',
          outcome: 'refused',
          detail: {
            locked: ['account'],
            locked_until: new Date(clock.now().getTime() + 15 * MINUTE).toISOString(),
          },
        }),
      ]);
    });
  });
});
