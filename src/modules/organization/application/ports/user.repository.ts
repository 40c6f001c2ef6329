import type { User, UserRole } from '../../domain/user.js';

export interface NewUser {
  organizationId: string;
  email: string;
  name: string;
  role: UserRole;
  campaignIds: string[] | null;
}

export interface UserChanges {
  name?: string;
  role?: UserRole;
  campaignIds?: string[] | null;
}

export interface NewInvitation {
  tokenHash: string;
  expiresAt: Date;
}

/** People and their invitations. `now` arguments are the times recorded (the service's clock). */
export abstract class UserRepository {
  /** The person and their first invitation, together; a ConflictError when the email is taken. */
  abstract createUser(user: NewUser, invitation: NewInvitation, now: Date): Promise<User>;
  abstract listUsers(organizationId: string): Promise<User[]>;
  abstract findUser(organizationId: string, id: string): Promise<User | null>;
  /** Null when the organization has no such person (deactivated people cannot be changed). */
  abstract updateUser(
    organizationId: string,
    id: string,
    changes: UserChanges,
    now: Date,
  ): Promise<User | null>;
  /** Deactivates the person and ends their sessions; null when no active person has that id. */
  abstract deactivateUser(organizationId: string, id: string, now: Date): Promise<User | null>;
  /**
   * A new invitation for a person who is not deactivated; their earlier unused invitations stop
   * working. Null when the organization has no such person.
   */
  abstract reinvite(
    organizationId: string,
    id: string,
    invitation: NewInvitation,
    now: Date,
  ): Promise<User | null>;
  /**
   * Uses the invitation (once: a single conditional statement) and sets the person's password,
   * ending their sessions. Null when the token is unknown, used, expired, or its person deactivated.
   */
  abstract acceptInvitation(
    tokenHash: string,
    passwordHash: string,
    now: Date,
  ): Promise<User | null>;
  /** The active or invited person with that email (any case), with their password hash. */
  abstract findForSignIn(
    email: string,
  ): Promise<{ user: User; passwordHash: string | null } | null>;
}
