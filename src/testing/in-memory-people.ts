import { randomUUID } from 'crypto';
import { ConflictError } from '../common/errors/domain-errors.js';
import {
  FailureLimit,
  SessionStore,
} from '../modules/organization/application/ports/session.store.js';
import {
  NewInvitation,
  NewUser,
  UserChanges,
  StoredTotpSecret,
  UserRepository,
} from '../modules/organization/application/ports/user.repository.js';
import {
  LAST_SEEN_PRECISION_MS,
  Session,
  User,
  UserRole,
} from '../modules/organization/domain/user.js';

interface StoredUser extends User {
  passwordHash: string | null;
  totpSecret: StoredTotpSecret | null;
  totpLastStep: number | null;
}
interface StoredInvitation extends NewInvitation {
  userId: string;
  usedAt: Date | null;
}
interface StoredSession {
  id: string;
  userId: string;
  tokenHash: string;
  createdAt: Date;
  lastSeenAt: Date;
  endedAt: Date | null;
}

const copy = ({
  passwordHash,
  totpSecret: _secret,
  totpLastStep: _step,
  ...user
}: StoredUser): User => ({
  ...user,
  hasPassword: passwordHash !== null,
  campaignIds: user.campaignIds && [...user.campaignIds],
});

/**
 * People, invitations and sessions in memory, by the rules of the SQL adapters: emails unique
 * without case, an invitation used once, deactivation ending sessions.
 */
export class InMemoryPeople {
  readonly users = new Map<string, StoredUser>();
  readonly invitations: StoredInvitation[] = [];
  readonly sessions = new Map<string, StoredSession>();
  /** Organizations that require a second factor. */
  readonly totpRequired = new Set<string>();
  readonly failures = new Map<
    string,
    { failures: number; windowStartedAt: Date; lockedUntil: Date | null }
  >();

  endSessions(userId: string, now: Date): void {
    for (const s of this.sessions.values()) if (s.userId === userId) s.endedAt ??= now;
  }

  expireInvitations(userId: string, now: Date): void {
    for (const i of this.invitations) {
      if (i.userId === userId && !i.usedAt && i.expiresAt > now) i.expiresAt = now;
    }
  }
}

export class InMemoryUserRepository extends UserRepository {
  constructor(readonly people = new InMemoryPeople()) {
    super();
  }

  async createUser(user: NewUser, invitation: NewInvitation, now: Date): Promise<User> {
    if (this.withEmail(user.email)) {
      throw new ConflictError(`A person with the email ${user.email} already exists`);
    }
    const stored = this.insert(user, now);
    this.people.invitations.push({ ...invitation, userId: stored.id, usedAt: null });
    return copy(stored);
  }

  async listUsers(organizationId: string): Promise<User[]> {
    return [...this.people.users.values()]
      .filter((u) => u.organizationId === organizationId)
      .map(copy);
  }

  async findUser(organizationId: string, id: string): Promise<User | null> {
    const u = this.people.users.get(id);
    return u && u.organizationId === organizationId ? copy(u) : null;
  }

  async updateUser(organizationId: string, id: string, changes: UserChanges, now: Date) {
    const u = this.people.users.get(id);
    if (!u || u.organizationId !== organizationId || u.deactivatedAt) return null;
    if (changes.name !== undefined) u.name = changes.name;
    if (changes.role !== undefined) u.role = changes.role;
    if (changes.campaignIds !== undefined) u.campaignIds = changes.campaignIds;
    u.updatedAt = now;
    return copy(u);
  }

  async deactivateUser(organizationId: string, id: string, now: Date) {
    const u = this.people.users.get(id);
    if (!u || u.organizationId !== organizationId || u.deactivatedAt) return null;
    u.deactivatedAt = now;
    u.updatedAt = now;
    this.people.endSessions(id, now);
    this.people.expireInvitations(id, now);
    return copy(u);
  }

  async reinvite(organizationId: string, id: string, invitation: NewInvitation, now: Date) {
    const u = this.people.users.get(id);
    if (!u || u.organizationId !== organizationId || u.deactivatedAt) return null;
    this.people.expireInvitations(id, now);
    this.people.invitations.push({ ...invitation, userId: id, usedAt: null });
    return copy(u);
  }

  async acceptInvitation(tokenHash: string, passwordHash: string, now: Date) {
    const i = this.people.invitations.find((x) => x.tokenHash === tokenHash);
    const u = i && this.people.users.get(i.userId);
    if (!i || !u || i.usedAt || i.expiresAt <= now || u.deactivatedAt) return null;
    i.usedAt = now;
    u.passwordHash = passwordHash;
    u.updatedAt = now;
    this.people.endSessions(u.id, now);
    return copy(u);
  }

  async findForSignIn(email: string) {
    // Emails are unique without case: the one person with it, unless deactivated.
    const u = this.withEmail(email);
    return u && !u.deactivatedAt
      ? {
          user: copy(u),
          passwordHash: u.passwordHash,
          totpSecret: u.totpEnabled ? u.totpSecret : null,
        }
      : null;
  }

  async setPendingTotp(userId: string, secret: StoredTotpSecret, now: Date) {
    const u = this.people.users.get(userId);
    if (!u || u.totpEnabled) return false;
    u.totpSecret = secret;
    u.updatedAt = now;
    return true;
  }

  async findTotp(userId: string) {
    const u = this.people.users.get(userId);
    return u?.totpSecret ? { secret: u.totpSecret, enabled: u.totpEnabled } : null;
  }

  async enableTotp(userId: string, step: number, now: Date) {
    const u = this.people.users.get(userId);
    if (!u || !u.totpSecret || u.totpEnabled) return false;
    Object.assign(u, { totpEnabled: true, totpLastStep: step, updatedAt: now });
    return true;
  }

  async useTotpStep(userId: string, step: number) {
    const u = this.people.users.get(userId);
    if (!u || (u.totpLastStep !== null && u.totpLastStep >= step)) return false;
    u.totpLastStep = step;
    return true;
  }

  async disableTotp(userId: string, now: Date) {
    const u = this.people.users.get(userId);
    if (u)
      Object.assign(u, {
        totpSecret: null,
        totpEnabled: false,
        totpLastStep: null,
        updatedAt: now,
      });
  }

  async upsertProviderUser(
    user: { organizationId: string; email: string; name: string; role: UserRole },
    now: Date,
  ) {
    const existing = this.withEmail(user.email);
    if (existing) {
      if (existing.organizationId !== user.organizationId || existing.deactivatedAt) return null;
      Object.assign(existing, { name: user.name, role: user.role, updatedAt: now });
      return copy(existing);
    }
    return copy(this.insert({ ...user, campaignIds: null }, now));
  }

  private withEmail(email: string): StoredUser | undefined {
    return [...this.people.users.values()].find(
      (u) => u.email.toLowerCase() === email.toLowerCase(),
    );
  }

  /** A person as first stored: no password or second factor yet. */
  private insert(user: NewUser, now: Date): StoredUser {
    const stored: StoredUser = {
      ...user,
      id: randomUUID(),
      hasPassword: false,
      totpEnabled: false,
      passwordHash: null,
      totpSecret: null,
      totpLastStep: null,
      createdAt: now,
      updatedAt: now,
      deactivatedAt: null,
    };
    this.people.users.set(stored.id, stored);
    return stored;
  }

  async setTotpRequired(organizationId: string, required: boolean) {
    if (required) this.people.totpRequired.add(organizationId);
    else this.people.totpRequired.delete(organizationId);
  }

  async totpRequired(organizationId: string) {
    return this.people.totpRequired.has(organizationId);
  }
}

export class InMemorySessionStore extends SessionStore {
  constructor(readonly people: InMemoryPeople) {
    super();
  }

  async createSession(userId: string, tokenHash: string, now: Date): Promise<Session> {
    const s = {
      id: randomUUID(),
      userId,
      tokenHash,
      createdAt: now,
      lastSeenAt: now,
      endedAt: null,
    };
    this.people.sessions.set(s.id, s);
    return this.present(s)!;
  }

  async findSession(tokenHash: string): Promise<Session | null> {
    const s = [...this.people.sessions.values()].find((x) => x.tokenHash === tokenHash);
    return s && !s.endedAt ? this.present(s) : null;
  }

  async touchSession(id: string, now: Date): Promise<void> {
    const s = this.people.sessions.get(id);
    if (s && !s.endedAt && now.getTime() - s.lastSeenAt.getTime() >= LAST_SEEN_PRECISION_MS) {
      s.lastSeenAt = now;
    }
  }

  async endSession(id: string, now: Date): Promise<boolean> {
    const s = this.people.sessions.get(id);
    if (!s || s.endedAt) return false;
    s.endedAt = now;
    return true;
  }

  async lockedUntil(subjects: string[], now: Date): Promise<Date | null> {
    const locks = subjects
      .map((s) => this.people.failures.get(s)?.lockedUntil)
      .filter((d): d is Date => !!d && d > now);
    return locks.length ? new Date(Math.max(...locks.map((d) => d.getTime()))) : null;
  }

  async recordFailure(limits: FailureLimit[], now: Date, windowMs: number, lockoutMs: number) {
    const locked: { subject: string; lockedUntil: Date }[] = [];
    for (const { subject, limit } of limits) {
      const f = this.people.failures.get(subject);
      const expired = !f || f.windowStartedAt.getTime() <= now.getTime() - windowMs;
      const failures = expired ? 1 : f.failures + 1;
      const lockedUntil = failures >= limit ? new Date(now.getTime() + lockoutMs) : null;
      this.people.failures.set(subject, {
        failures,
        windowStartedAt: expired ? now : f.windowStartedAt,
        lockedUntil: lockedUntil ?? f?.lockedUntil ?? null,
      });
      if (lockedUntil) locked.push({ subject, lockedUntil: new Date(lockedUntil) });
    }
    return locked;
  }

  async clearFailures(subject: string): Promise<void> {
    this.people.failures.delete(subject);
  }

  private present(s: StoredSession): Session | null {
    const u = this.people.users.get(s.userId);
    if (!u || u.deactivatedAt) return null;
    return {
      id: s.id,
      user: copy(u),
      totpRequired: this.people.totpRequired.has(u.organizationId),
      createdAt: s.createdAt,
      lastSeenAt: s.lastSeenAt,
    };
  }
}
