import { randomBytes } from 'crypto';
import { SessionStore } from '../../src/modules/organization/application/ports/session.store.js';
import { UserRepository } from '../../src/modules/organization/application/ports/user.repository.js';
import { LAST_SEEN_PRECISION_MS } from '../../src/modules/organization/domain/user.js';

/** The same rules for UserRepository and SessionStore, against the fakes and the SQL adapters. */
export function peopleContract(setup: {
  users: () => UserRepository;
  sessions: () => SessionStore;
  organizationId: () => Promise<string>;
}): void {
  const unique = (prefix: string) => `${prefix}-${randomBytes(6).toString('hex')}`;
  const at = new Date('2026-03-01T10:00:00.000Z');
  const later = (ms: number) => new Date(at.getTime() + ms);
  const HOUR = 3_600_000;

  async function invited(role: 'admin' | 'operator' | 'viewer' = 'operator') {
    const organizationId = await setup.organizationId();
    const token = unique('invite');
    const user = await setup.users().createUser(
      {
        organizationId,
        email: `${unique('p')}@Clinic.example`,
        name: 'Pat',
        role,
        campaignIds: null,
      },
      { tokenHash: token, expiresAt: later(HOUR) },
      at,
    );
    return { user, token, organizationId };
  }

  it('creates a person with an invitation, used once and only before it expires', async () => {
    const { user, token, organizationId } = await invited();
    expect(user).toEqual({
      id: expect.any(String),
      organizationId,
      email: user.email,
      name: 'Pat',
      role: 'operator',
      campaignIds: null,
      hasPassword: false,
      totpEnabled: false,
      createdAt: at,
      updatedAt: at,
      deactivatedAt: null,
    });
    expect(await setup.users().findForSignIn(user.email.toUpperCase())).toEqual({
      user,
      passwordHash: null,
      totpSecret: null,
    });
    expect(await setup.users().acceptInvitation(token, 'hash', later(HOUR))).toBeNull();
    const accepted = await setup.users().acceptInvitation(token, 'hash', later(1));
    expect(accepted).toEqual({ ...user, hasPassword: true, updatedAt: later(1) });
    expect(await setup.users().acceptInvitation(token, 'other', later(2))).toBeNull();
    expect(await setup.users().findForSignIn(user.email)).toEqual({
      user: accepted,
      passwordHash: 'hash',
      totpSecret: null,
    });
    expect(await setup.users().listUsers(organizationId)).toEqual([accepted]);
  });

  it('refuses a second person with the same email, whatever its case', async () => {
    const { user } = await invited();
    const organizationId = await setup.organizationId();
    await expect(
      setup.users().createUser(
        {
          organizationId,
          email: user.email.toUpperCase(),
          name: 'Twin',
          role: 'viewer',
          campaignIds: null,
        },
        { tokenHash: unique('t'), expiresAt: later(HOUR) },
        at,
      ),
    ).rejects.toThrow(`A person with the email ${user.email.toUpperCase()} already exists`);
  });

  it('changes only the fields given, within the organization', async () => {
    const { user, organizationId } = await invited();
    const campaign = '00000000-0000-4000-8000-000000000001';
    const changed = await setup
      .users()
      .updateUser(organizationId, user.id, { role: 'viewer', campaignIds: [campaign] }, later(1));
    expect(changed).toEqual({
      ...user,
      role: 'viewer',
      campaignIds: [campaign],
      updatedAt: later(1),
    });
    expect(
      await setup.users().updateUser(organizationId, user.id, { name: 'Pat Lee' }, later(2)),
    ).toEqual({ ...changed, name: 'Pat Lee', updatedAt: later(2) });
    const other = await setup.organizationId();
    expect(await setup.users().updateUser(other, user.id, { name: 'x' }, later(3))).toBeNull();
    expect(await setup.users().findUser(other, user.id)).toBeNull();
  });

  it('replaces an invitation with a new one', async () => {
    const { user, token, organizationId } = await invited();
    const again = unique('again');
    expect(
      await setup
        .users()
        .reinvite(organizationId, user.id, { tokenHash: again, expiresAt: later(HOUR) }, later(1)),
    ).toEqual(user);
    expect(await setup.users().acceptInvitation(token, 'hash', later(2))).toBeNull();
    expect(await setup.users().acceptInvitation(again, 'hash', later(2))).not.toBeNull();
  });

  it('keeps sessions until they end, touches them at most every few seconds', async () => {
    const { user, token } = await invited();
    await setup.users().acceptInvitation(token, 'hash', at);
    const tokenHash = unique('session');
    const session = await setup.sessions().createSession(user.id, tokenHash, later(1));
    expect(session).toEqual({
      id: expect.any(String),
      user: { ...user, hasPassword: true },
      totpRequired: false,
      createdAt: later(1),
      lastSeenAt: later(1),
    });
    await setup.sessions().touchSession(session.id, later(2));
    expect(await setup.sessions().findSession(tokenHash)).toEqual(session);
    await setup.sessions().touchSession(session.id, later(1 + LAST_SEEN_PRECISION_MS));
    expect(await setup.sessions().findSession(tokenHash)).toEqual({
      ...session,
      lastSeenAt: later(1 + LAST_SEEN_PRECISION_MS),
    });
    expect(await setup.sessions().endSession(session.id, later(HOUR))).toBe(true);
    expect(await setup.sessions().endSession(session.id, later(HOUR))).toBe(false);
    expect(await setup.sessions().findSession(tokenHash)).toBeNull();
  });

  it('ends sessions when the person is deactivated or sets a new password', async () => {
    const { user, token, organizationId } = await invited();
    await setup.users().acceptInvitation(token, 'hash', at);
    const first = unique('s1');
    await setup.sessions().createSession(user.id, first, later(1));
    const reset = unique('reset');
    await setup
      .users()
      .reinvite(organizationId, user.id, { tokenHash: reset, expiresAt: later(HOUR) }, later(2));
    await setup.users().acceptInvitation(reset, 'new hash', later(3));
    expect(await setup.sessions().findSession(first)).toBeNull();

    const second = unique('s2');
    await setup.sessions().createSession(user.id, second, later(4));
    const gone = await setup.users().deactivateUser(organizationId, user.id, later(5));
    expect(gone).toMatchObject({ id: user.id, deactivatedAt: later(5) });
    expect(await setup.sessions().findSession(second)).toBeNull();
    expect(await setup.users().findForSignIn(user.email)).toBeNull();
    expect(await setup.users().deactivateUser(organizationId, user.id, later(6))).toBeNull();
  });

  it('locks a subject at its limit of failures within the window, and starts over after it', async () => {
    const account = unique('account');
    const address = unique('address');
    const limits = [
      { subject: account, limit: 3 },
      { subject: address, limit: 5 },
    ];
    const window = 10 * 60_000;
    const store = setup.sessions();
    await store.recordFailure(limits, later(0), window, window);
    await store.recordFailure(limits, later(1000), window, window);
    expect(await store.lockedUntil([account, address], later(2000))).toBeNull();
    await store.recordFailure(limits, later(2000), window, window);
    expect(await store.lockedUntil([account, address], later(3000))).toEqual(later(2000 + window));
    expect(await store.lockedUntil([address], later(3000))).toBeNull();
    expect(await store.lockedUntil([account], later(2000 + window))).toBeNull();
    // A new window: one failure is not a lock.
    await store.recordFailure(limits, later(2000 + window), window, window);
    expect(await store.lockedUntil([account], later(2001 + window))).toBeNull();
    // Failures far apart never add up to a lock.
    const slow = unique('slow');
    for (let i = 0; i < 4; i++) {
      await store.recordFailure([{ subject: slow, limit: 2 }], later(i * window), window, window);
    }
    expect(await store.lockedUntil([slow], later(4 * window - 1))).toBeNull();
    await store.clearFailures(account);
    expect(await store.lockedUntil([account], later(2001 + window))).toBeNull();
  });

  it('keeps a second factor pending until confirmed, each step used once, and the organization rule', async () => {
    const { user, organizationId } = await invited();
    const users = setup.users();
    expect(await users.findTotp(user.id)).toBeNull();
    expect(await users.enableTotp(user.id, 10, at)).toBe(false);
    const first = { keyId: 'key-1', ciphertext: 'v1:FIRST' };
    const second = { keyId: 'key-1', ciphertext: 'v1:SECOND' };
    expect(await users.setPendingTotp(user.id, first, at)).toBe(true);
    expect(await users.setPendingTotp(user.id, second, at)).toBe(true);
    expect(await users.findTotp(user.id)).toEqual({ secret: second, enabled: false });
    expect((await users.findForSignIn(user.email))?.totpSecret).toBeNull();
    expect(await users.enableTotp(user.id, 10, later(1))).toBe(true);
    expect(
      await users.setPendingTotp(user.id, { keyId: null, ciphertext: 'THIRD' }, later(2)),
    ).toBe(false);
    expect((await users.findForSignIn(user.email))?.totpSecret).toEqual(second);
    expect((await users.findUser(organizationId, user.id))?.totpEnabled).toBe(true);
    expect(await users.useTotpStep(user.id, 10)).toBe(false);
    expect(await users.useTotpStep(user.id, 11)).toBe(true);
    expect(await users.useTotpStep(user.id, 11)).toBe(false);
    await users.disableTotp(user.id, later(3));
    expect(await users.findTotp(user.id)).toBeNull();
    expect(await users.totpRequired(organizationId)).toBe(false);
    await users.setTotpRequired(organizationId, true);
    expect(await users.totpRequired(organizationId)).toBe(true);
  });
}
