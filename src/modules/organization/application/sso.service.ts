import { Injectable } from '@nestjs/common';
import { ROLES } from '../../../common/auth/access.js';
import { Clock, SystemClock } from '../../../common/clock/clock.js';
import {
  ForbiddenError,
  NotFoundError,
  UnauthorizedError,
} from '../../../common/errors/domain-errors.js';
import { normalizeEmail, type User, USER_ROLES, type UserRole } from '../domain/user.js';
import { IdentityProvider, type PendingSignOn } from './ports/identity-provider.js';
import { UserRepository } from './ports/user.repository.js';
import { OrganizationService } from './organization.service.js';
import type { AuditActor } from '../../audit/domain/audit-event.js';
import { actorOf, type SignedIn, SessionService } from './session.service.js';

/** Where people who sign in through the provider belong; built from the configuration. */
export class SsoSettings {
  /** The provider's group -> our role. */
  readonly roleMap: Map<string, UserRole>;
  /** The organization people signing in through the provider belong to. */
  readonly organizationName: string | undefined;

  constructor(settings: SsoSettings) {
    Object.assign(this, settings);
  }
}

export const SSO_NOT_CONFIGURED =
  'Single sign-on is not configured (OIDC_ISSUER_URL, OIDC_CLIENT_ID, OIDC_ORGANIZATION)';

/** `group=role,...` as a map; a role that is not a person's role is a configuration error. */
export function parseRoleMap(raw: string): Map<string, UserRole> {
  const map = new Map<string, UserRole>();
  for (const pair of raw
    .split(',')
    .map((p) => p.trim())
    .filter(Boolean)) {
    const eq = pair.lastIndexOf('=');
    const role = pair.slice(eq + 1).trim();
    if (eq <= 0 || !(USER_ROLES as readonly string[]).includes(role)) {
      throw new Error(
        `OIDC_ROLE_MAP: expected group=role pairs with a role among ${USER_ROLES.join(', ')}, got "${pair}"`,
      );
    }
    map.set(pair.slice(0, eq).trim(), role as UserRole);
  }
  return map;
}

/**
 * Single sign-on over OpenID Connect: the provider proves who the person is; its groups give their
 * role here (the highest of those mapped). A person is created at their first sign-in and their
 * name and role follow the provider at every sign-in; an admin deactivates them as anyone.
 */
@Injectable()
export class SsoService {
  constructor(
    private readonly provider: IdentityProvider,
    private readonly users: UserRepository,
    private readonly organizations: OrganizationService,
    private readonly sessions: SessionService,
    private readonly settings: SsoSettings,
    private readonly clock: Clock = new SystemClock(),
  ) {}

  get enabled(): boolean {
    return this.provider.enabled && Boolean(this.settings.organizationName);
  }

  start(redirectUri: string): Promise<{ url: string; pending: PendingSignOn }> {
    if (!this.enabled) throw new NotFoundError(SSO_NOT_CONFIGURED);
    return this.provider.authorizationUrl(redirectUri);
  }

  /**
   * Signs in the person the provider names. Every outcome is in the SSO organization's trail
   * (`session.sign_in` or `session.sign_in_failed`, method `sso`): the actor is the person, or for one
   * the service does not know, who the provider said they were (kind `unknown`).
   */
  async finish(
    callbackUrl: string,
    pending: PendingSignOn | null,
    clientAddress: string,
  ): Promise<SignedIn> {
    if (!this.enabled) throw new NotFoundError(SSO_NOT_CONFIGURED);
    const organization = await this.organizations.ensureOrganization(
      this.settings.organizationName!,
    );
    const attempt = { organizationId: organization.id, method: 'sso' as const, clientAddress };
    let claimed: { email: string; name: string } | null = null;
    try {
      const identity = await this.identify(callbackUrl, pending);
      claimed = identity;
      const user = await this.person(organization.id, identity);
      const signedIn = await this.sessions.startSession(user);
      await this.sessions.recordSignIn({ ...attempt, actor: actorOf(user), outcome: 'allowed' });
      return signedIn;
    } catch (err) {
      if (err instanceof UnauthorizedError || err instanceof ForbiddenError) {
        await this.sessions.recordSignIn({
          ...attempt,
          actor: await this.claimedActor(organization.id, claimed),
          outcome: 'refused',
          reason: err.message,
        });
      }
      throw err;
    }
  }

  /** Who the provider's answer proves the person to be. */
  private async identify(
    callbackUrl: string,
    pending: PendingSignOn | null,
  ): Promise<{ email: string; name: string; groups: string[] }> {
    if (!pending) {
      throw new UnauthorizedError('Single sign-on was not started in this browser: start again');
    }
    const identity = await this.provider.complete(callbackUrl, pending).catch((err: unknown) => {
      throw new UnauthorizedError(
        `Single sign-on failed: ${err instanceof Error ? err.message : String(err)}`,
      );
    });
    if (!identity.email) {
      throw new UnauthorizedError('The identity provider gave no email for this person');
    }
    const email = normalizeEmail(identity.email);
    return { email, name: identity.name ?? email, groups: identity.groups };
  }

  /** The person, created or kept in step with the provider; Forbidden without a role or a place here. */
  private async person(
    organizationId: string,
    identity: { email: string; name: string; groups: string[] },
  ): Promise<User> {
    const { email } = identity;
    const granted = identity.groups
      .map((g) => this.settings.roleMap.get(g))
      .filter((r): r is UserRole => r !== undefined);
    // ROLES lists the widest first.
    const role = ROLES.find((r) => (granted as string[]).includes(r)) as UserRole | undefined;
    if (!role) {
      throw new ForbiddenError(
        `The identity provider grants ${email} none of the groups OIDC_ROLE_MAP gives a role`,
      );
    }
    const user = await this.users.upsertProviderUser(
      { organizationId, email, name: identity.name, role },
      this.clock.now(),
    );
    if (!user) {
      throw new ForbiddenError(
        `${email} may not sign in here: deactivated, or of another organization`,
      );
    }
    return user;
  }

  /** The organization's person with the claimed email, else the claim itself (or nobody named). */
  private async claimedActor(
    organizationId: string,
    claimed: { email: string; name: string } | null,
  ): Promise<AuditActor> {
    const found = claimed ? await this.users.findForSignIn(claimed.email) : null;
    if (found && found.user.organizationId === organizationId) return actorOf(found.user);
    return { kind: 'unknown', id: claimed?.email ?? '', name: claimed?.name ?? '', role: '' };
  }
}
