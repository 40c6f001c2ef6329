import { createHash, randomBytes } from 'crypto';
import type { Role } from '../../../common/auth/access.js';

/** The roles a person may hold: `integration` is for systems, which use keys. */
export const USER_ROLES = ['admin', 'operator', 'viewer'] as const satisfies readonly Role[];
export type UserRole = (typeof USER_ROLES)[number];

/** invited: no password set yet; active: may sign in; deactivated: may not, ever again. */
export type UserStatus = 'invited' | 'active' | 'deactivated';

export interface User {
  id: string;
  organizationId: string;
  email: string;
  name: string;
  role: UserRole;
  /** The only campaigns the person reaches, or null for all of the organization's. */
  campaignIds: string[] | null;
  hasPassword: boolean;
  /** Signs in with a TOTP code besides the password. */
  totpEnabled: boolean;
  createdAt: Date;
  updatedAt: Date;
  deactivatedAt: Date | null;
}

export function userStatus(user: User): UserStatus {
  if (user.deactivatedAt) return 'deactivated';
  return user.hasPassword ? 'active' : 'invited';
}

/** Emails compare without case (the unique index is on lower(email)). */
export function normalizeEmail(email: string): string {
  return email.trim().toLowerCase();
}

/**
 * Invitation and session tokens are 256 random bits, kept only as a SHA-256 hash: like API keys,
 * there is nothing to brute-force, and a stolen table holds nothing that signs anyone in.
 */
export function generateToken(): string {
  return randomBytes(32).toString('base64url');
}

export function hashToken(token: string): string {
  return createHash('sha256').update(token, 'utf8').digest('hex');
}

/**
 * The CSRF token of a session: derived from its secret, so nothing more is stored, and useless
 * without the cookie (which a cross-site page can neither read nor, with SameSite=Strict, send).
 */
export function csrfTokenFor(sessionToken: string): string {
  return createHash('sha256').update(`csrf:${sessionToken}`, 'utf8').digest('base64url');
}

export interface Session {
  id: string;
  user: User;
  /** The person's organization requires a second factor (and so this session, until it is set up). */
  totpRequired: boolean;
  createdAt: Date;
  lastSeenAt: Date;
}

export interface SessionLimits {
  idleTimeoutMs: number;
  maxAgeMs: number;
}

/** When the session ends if no request comes first. */
export function sessionEndsAt(
  session: Pick<Session, 'createdAt' | 'lastSeenAt'>,
  limits: SessionLimits,
): Date {
  return new Date(
    Math.min(
      session.lastSeenAt.getTime() + limits.idleTimeoutMs,
      session.createdAt.getTime() + limits.maxAgeMs,
    ),
  );
}

/** `last_seen_at` is refreshed when older than this: a busy session costs a write a quarter-minute. */
export const LAST_SEEN_PRECISION_MS = 15_000;
