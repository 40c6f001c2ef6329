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

/**
 * A TOTP secret as stored: sealed under SECRETS_KEY (`keyId` names the key), or, for one stored before
 * secrets were sealed, the plain base32 (`keyId` null).
 */
export interface StoredTotpSecret {
  keyId: string | null;
  ciphertext: string;
}

export interface SignInRecord {
  user: User;
  passwordHash: string | null;
  /** The secret of the second factor in use; null without one. */
  totpSecret: StoredTotpSecret | null;
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
  /**
   * The active or invited person with that email (any case), with their password hash and, when
   * their second factor is in use, its secret.
   */
  abstract findForSignIn(email: string): Promise<SignInRecord | null>;
  /** Stores a secret being set up (replacing one not yet confirmed); false once one is in use. */
  abstract setPendingTotp(userId: string, secret: StoredTotpSecret, now: Date): Promise<boolean>;
  /** The secret being set up or in use. */
  abstract findTotp(userId: string): Promise<{ secret: StoredTotpSecret; enabled: boolean } | null>;
  /** Puts the pending secret in use, `step` used; false when there is none pending. */
  abstract enableTotp(userId: string, step: number, now: Date): Promise<boolean>;
  /** Records `step` as used unless it (or a later one) was: false for a replayed code. */
  abstract useTotpStep(userId: string, step: number): Promise<boolean>;
  abstract disableTotp(userId: string, now: Date): Promise<void>;
  /**
   * The person who signed in through the identity provider: created on first sign-in (active, no
   * password), their name and role refreshed from the provider at every one. Null when the email
   * belongs to another organization's person or to a deactivated one.
   */
  abstract upsertProviderUser(
    user: { organizationId: string; email: string; name: string; role: UserRole },
    now: Date,
  ): Promise<User | null>;
  abstract setTotpRequired(organizationId: string, required: boolean): Promise<void>;
  abstract totpRequired(organizationId: string): Promise<boolean>;
}
