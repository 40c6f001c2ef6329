import { AuditTrailService } from '../../audit/application/audit-trail.service.js';
import type { AuditActor } from '../../audit/domain/audit-event.js';
import { Injectable } from '@nestjs/common';
import type { AuthContext } from '../../../common/auth/auth-context.js';
import { Clock } from '../../../common/clock/clock.js';
import { TooManyAttemptsError, UnauthorizedError } from '../../../common/errors/domain-errors.js';
import { unusablePasswordHash, verifyPassword } from '../domain/password.js';
import { totpStep } from '../domain/totp.js';
import {
  csrfTokenFor,
  generateToken,
  hashToken,
  normalizeEmail,
  type Session,
  sessionEndsAt,
  type SessionLimits,
  type User,
} from '../domain/user.js';
import { SessionStore } from './ports/session.store.js';
import { UserRepository } from './ports/user.repository.js';
import { TotpSecrets } from './totp-secrets.js';

/** Session timeouts and sign-in lockouts; built from the configuration by the module. */
export class SessionSettings implements SessionLimits {
  readonly idleTimeoutMs: number;
  readonly maxAgeMs: number;
  readonly failuresPerAccount: number;
  readonly failuresPerAddress: number;
  readonly lockoutMs: number;

  constructor(settings: SessionSettings) {
    Object.assign(this, settings);
  }
}

export interface SignedIn {
  /** The cookie's value: the session's secret, never stored. */
  token: string;
  auth: AuthContext;
}

export const WRONG_CREDENTIALS = 'Wrong email or password';
export const TOTP_CODE_NEEDED =
  'Enter the 6-digit code of your authenticator app as totp_code: your account has a second factor';
export const WRONG_TOTP_CODE = 'Wrong or already used code from the authenticator app';
export const SESSION_ENDED = 'Your session has ended: sign in again';

/** A person as the audit trail names them. */
export const actorOf = (user: User): AuditActor => ({
  kind: 'user',
  id: user.id,
  name: user.name,
  role: user.role,
});

const attemptBy = (
  user: User,
  outcome: 'allowed' | 'refused',
  clientAddress: string,
  reason?: string,
) => ({
  organizationId: user.organizationId,
  actor: actorOf(user),
  method: 'password' as const,
  outcome,
  clientAddress,
  reason,
});

/**
 * Signing in with email and password, the sessions that follow (idle and absolute timeouts on the
 * service's clock), signing out, and the lockout after repeated failures per account and per client
 * address. A locked account or address is refused before its password is looked at, so a lockout
 * cannot be guessed through.
 */
@Injectable()
export class SessionService {
  constructor(
    private readonly users: UserRepository,
    private readonly sessions: SessionStore,
    private readonly settings: SessionSettings,
    private readonly secrets: TotpSecrets,
    private readonly clock: Clock,
    // Required: a sign-in that the trail does not hold is one a security review cannot see.
    private readonly audit: AuditTrailService,
  ) {}

  /**
   * A sign-in, allowed or refused, in the organization's trail: by password here, by single sign-on
   * (SsoService). The actor is who signed in, or who the attempt claimed to be.
   */
  async recordSignIn(attempt: {
    organizationId: string;
    actor: AuditActor;
    method: 'password' | 'sso';
    outcome: 'allowed' | 'refused';
    clientAddress: string;
    reason?: string;
  }): Promise<void> {
    const { actor, outcome, reason } = attempt;
    await this.audit.record({
      organizationId: attempt.organizationId,
      actor,
      action: outcome === 'allowed' ? 'session.sign_in' : 'session.sign_in_failed',
      resourceType: 'user',
      resourceId: actor.kind === 'user' ? actor.id : null,
      outcome,
      clientAddress: attempt.clientAddress,
      detail: { method: attempt.method, ...(reason ? { reason } : {}) },
    });
  }

  async signIn(
    email: string,
    password: string,
    clientAddress: string,
    totpCode?: string,
  ): Promise<SignedIn> {
    const now = this.clock.now();
    const account = `account:${normalizeEmail(email)}`;
    const address = `address:${clientAddress}`;
    const lockedUntil = await this.sessions.lockedUntil([account, address], now);
    if (lockedUntil) {
      const seconds = Math.ceil((lockedUntil.getTime() - now.getTime()) / 1000);
      throw new TooManyAttemptsError(
        `Too many failed sign-ins: try again in ${Math.ceil(seconds / 60)} minute(s)`,
        seconds,
      );
    }
    const found = await this.users.findForSignIn(email);
    // Unknown people are checked against a hash too: the answer takes as long and says the same.
    const valid = await verifyPassword(
      password,
      found?.passwordHash ?? (await unusablePasswordHash()),
    );
    const fail = async (detail: string): Promise<never> => {
      // An unknown email names no organization: its failures are counted, not in any trail.
      if (found) await this.recordSignIn(attemptBy(found.user, 'refused', clientAddress, detail));
      const locked = await this.sessions.recordFailure(
        [
          { subject: account, limit: this.settings.failuresPerAccount },
          { subject: address, limit: this.settings.failuresPerAddress },
        ],
        now,
        this.settings.lockoutMs,
        this.settings.lockoutMs,
      );
      if (found && locked.length > 0) await this.recordLockout(found.user, locked, clientAddress);
      throw new UnauthorizedError(detail);
    };
    if (!found || !found.passwordHash || !valid) return fail(WRONG_CREDENTIALS);
    if (found.totpSecret) {
      if (!totpCode) throw new UnauthorizedError(TOTP_CODE_NEEDED);
      const secret = this.secrets.open(found.user.id, found.totpSecret);
      const step = totpStep(secret, totpCode, now);
      // A code works once: a step at or before the last one used is refused.
      if (step === null || !(await this.users.useTotpStep(found.user.id, step))) {
        return fail(WRONG_TOTP_CODE);
      }
    }
    await this.sessions.clearFailures(account);
    const signedIn = await this.startSession(found.user);
    await this.recordSignIn(attemptBy(found.user, 'allowed', clientAddress));
    return signedIn;
  }

  /** The moment a failure locks the account or the address, in the claimed person's trail. */
  private async recordLockout(
    user: User,
    locked: { subject: string; lockedUntil: Date }[],
    clientAddress: string,
  ): Promise<void> {
    await this.audit.record({
      organizationId: user.organizationId,
      actor: actorOf(user),
      action: 'session.locked',
      resourceType: 'user',
      resourceId: user.id,
      outcome: 'refused',
      clientAddress,
      detail: {
        // `account` or `address`: which the failures locked (the subject itself is an email or address).
        locked: locked.map((l) => l.subject.slice(0, l.subject.indexOf(':'))),
        locked_until: new Date(
          Math.max(...locked.map((l) => l.lockedUntil.getTime())),
        ).toISOString(),
      },
    });
  }

  /** A session for a person whose identity was proven elsewhere (single sign-on). */
  async startSession(user: User): Promise<SignedIn> {
    const token = generateToken();
    const session = await this.sessions.createSession(user.id, hashToken(token), this.clock.now());
    return { token, auth: this.authContext(session, token) };
  }

  /** The session the cookie names, if it has not ended (signed out, idle, too old, deactivated). */
  async authenticate(token: string): Promise<AuthContext> {
    const session = await this.sessions.findSession(hashToken(token));
    const now = this.clock.now();
    if (!session || sessionEndsAt(session, this.settings).getTime() <= now.getTime()) {
      throw new UnauthorizedError(SESSION_ENDED);
    }
    // Bookkeeping, as for keys: a failed write must not refuse a valid session.
    await this.sessions.touchSession(session.id, now).catch(() => undefined);
    return this.authContext({ ...session, lastSeenAt: now }, token);
  }

  async signOut(sessionId: string): Promise<void> {
    await this.sessions.endSession(sessionId, this.clock.now());
  }

  private authContext(session: Session, token: string): AuthContext {
    const user: User = session.user;
    return {
      organizationId: user.organizationId,
      apiKeyId: null,
      principal: { kind: 'user', id: user.id, name: user.name, email: user.email },
      role: user.role,
      campaignIds: user.campaignIds,
      session: {
        id: session.id,
        csrfToken: csrfTokenFor(token),
        endsAt: sessionEndsAt(session, this.settings),
        maxEndsAt: new Date(session.createdAt.getTime() + this.settings.maxAgeMs),
        totpEnabled: user.totpEnabled,
        totpRequired: session.totpRequired,
      },
    };
  }
}
