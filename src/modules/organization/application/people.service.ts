import { Injectable } from '@nestjs/common';
import { Clock, SystemClock } from '../../../common/clock/clock.js';
import {
  ConflictError,
  InvalidInputError,
  NotFoundError,
} from '../../../common/errors/domain-errors.js';
import { isUuid } from '../../../common/ids/canonical-uuid.js';
import { hashPassword, verifyPassword } from '../domain/password.js';
import {
  generateToken,
  hashToken,
  normalizeEmail,
  type User,
  type UserRole,
} from '../domain/user.js';
import { AuditTrailService } from '../../audit/application/audit-trail.service.js';
import { UserChanges, UserRepository } from './ports/user.repository.js';

export interface PeopleSettings {
  invitationTtlMs: number;
}

/** An invitation's secret: shown once, to the admin who hands it over (there is no mail server). */
export interface Invitation {
  token: string;
  expiresAt: Date;
}

export const MIN_PASSWORD_LENGTH = 12;

/** People of an organization: inviting, changing, deactivating, and accepting an invitation. */
@Injectable()
export class PeopleService {
  constructor(
    private readonly users: UserRepository,
    private readonly settings: PeopleSettings,
    private readonly clock: Clock = new SystemClock(),
    // The app's trail (AuditModule); a service built by hand in a unit test records nothing.
    private readonly audit: AuditTrailService | null = null,
  ) {}

  async invite(
    organizationId: string,
    person: { email: string; name: string; role: UserRole; campaignIds: string[] | null },
  ): Promise<{ user: User; invitation: Invitation }> {
    const email = normalizeEmail(person.email);
    const name = person.name.trim();
    if (!name) throw new InvalidInputError('name must not be empty', ['name'], person.name);
    const now = this.clock.now();
    const { invitation, stored } = this.newInvitation(now);
    const user = await this.users.createUser(
      {
        organizationId,
        email,
        name,
        role: person.role,
        campaignIds: uniqueCampaigns(person.campaignIds),
      },
      stored,
      now,
    );
    return { user, invitation };
  }

  list(organizationId: string): Promise<User[]> {
    return this.users.listUsers(organizationId);
  }

  async change(organizationId: string, id: string, changes: UserChanges): Promise<User> {
    if (changes.name !== undefined && !changes.name.trim()) {
      throw new InvalidInputError('name must not be empty', ['name'], changes.name);
    }
    return requirePerson(id, () =>
      this.users.updateUser(
        organizationId,
        id,
        {
          ...changes,
          name: changes.name?.trim(),
          campaignIds:
            changes.campaignIds === undefined ? undefined : uniqueCampaigns(changes.campaignIds),
        },
        this.clock.now(),
      ),
    );
  }

  /** Deactivates the person: their sessions end at once and they cannot sign in again. */
  async deactivate(organizationId: string, id: string): Promise<User> {
    return requirePerson(id, () => this.users.deactivateUser(organizationId, id, this.clock.now()));
  }

  /** A new link for someone whose invitation expired, or who forgot their password. */
  async reinvite(
    organizationId: string,
    id: string,
  ): Promise<{ user: User; invitation: Invitation }> {
    const now = this.clock.now();
    const { invitation, stored } = this.newInvitation(now);
    const user = await requirePerson(id, () =>
      this.users.reinvite(organizationId, id, stored, now),
    );
    return { user, invitation };
  }

  /**
   * Sets the password through an invitation, once; an unknown, used or expired one is NotFound. The
   * person's organization's trail records it (`invitation.accept`, the person as actor).
   */
  async accept(
    token: string,
    password: string,
    clientAddress: string | null = null,
  ): Promise<User> {
    if (password.length < MIN_PASSWORD_LENGTH) {
      throw new InvalidInputError(
        `password must have at least ${MIN_PASSWORD_LENGTH} characters`,
        ['password'],
        null,
      );
    }
    const user = await this.users.acceptInvitation(
      hashToken(token),
      await hashPassword(password),
      this.clock.now(),
    );
    if (!user) {
      throw new NotFoundError(
        'This invitation is unknown, used or expired: ask an admin for a new one',
      );
    }
    await this.audit?.record({
      organizationId: user.organizationId,
      actor: { kind: 'user', id: user.id, name: user.name, role: user.role },
      action: 'invitation.accept',
      resourceType: 'user',
      resourceId: user.id,
      outcome: 'allowed',
      clientAddress,
      changedFields: ['password'],
    });
    return user;
  }

  /**
   * Makes sure the person exists in the organization and signs in with `password` (the demo's
   * admin): invited and given it the first time, given it again when it no longer works.
   */
  async ensureSignIn(
    organizationId: string,
    person: { email: string; name: string; role: UserRole },
    password: string,
  ): Promise<User> {
    const found = await this.users.findForSignIn(person.email);
    if (found && found.user.organizationId !== organizationId) {
      throw new ConflictError(`A person with the email ${person.email} already exists`);
    }
    if (found?.passwordHash && (await verifyPassword(password, found.passwordHash))) {
      return found.user;
    }
    const { invitation } = found
      ? await this.reinvite(organizationId, found.user.id)
      : await this.invite(organizationId, { ...person, campaignIds: null });
    return this.accept(invitation.token, password);
  }

  private newInvitation(now: Date) {
    const token = generateToken();
    const expiresAt = new Date(now.getTime() + this.settings.invitationTtlMs);
    return { invitation: { token, expiresAt }, stored: { tokenHash: hashToken(token), expiresAt } };
  }
}

function uniqueCampaigns(ids: string[] | null): string[] | null {
  return ids ? [...new Set(ids)] : null;
}

/** The person `lookup` answers for `id`; NotFound when it answers none (or `id` is no UUID). */
export async function requirePerson(id: string, lookup: () => Promise<User | null>): Promise<User> {
  const user = isUuid(id) ? await lookup() : null;
  if (!user) throw new NotFoundError(`User ${id} not found`);
  return user;
}
