import { createHash, randomBytes } from 'crypto';
import type { Role } from '../../../common/auth/access.js';

/** Keys are 256 random bits, so a fast hash at rest is enough: there is nothing to brute-force. */
export const API_KEY_PREFIX = 'ccs_';

export function generateApiKey(): string {
  return API_KEY_PREFIX + randomBytes(32).toString('base64url');
}

export function hashApiKey(key: string): string {
  return createHash('sha256').update(key, 'utf8').digest('hex');
}

/** Enough of the key to recognise it in a list, never enough to use it. */
export function displayPrefix(key: string): string {
  return key.slice(0, API_KEY_PREFIX.length + 6);
}

export interface Organization {
  id: string;
  name: string;
  createdAt: Date;
}

export interface ApiKeyRecord {
  id: string;
  organizationId: string;
  name: string;
  keyPrefix: string;
  createdAt: Date;
  /** Kept to the minute: at most one write a minute per key (see LAST_USED_PRECISION_MS). */
  lastUsedAt: Date | null;
  revokedAt: Date | null;
  role: Role;
  /** The only campaigns the key reaches, or null for all of its organization's. */
  campaignIds: string[] | null;
  /** From then on the key is refused. */
  expiresAt: Date | null;
  /** The key that created this one over the API (null for the CLI, the demo and BOOTSTRAP_API_KEYS). */
  createdBy: string | null;
}

/** What a new key is given besides its secret. */
export interface ApiKeyGrant {
  name: string;
  role: Role;
  campaignIds: string[] | null;
  expiresAt: Date | null;
  createdBy: string | null;
}

export function hasExpired(key: ApiKeyRecord, now: Date): boolean {
  return key.expiresAt !== null && key.expiresAt.getTime() <= now.getTime();
}

/** `last_used_at` is refreshed when it is older than this, so a busy key costs one write a minute. */
export const LAST_USED_PRECISION_MS = 60_000;

export function lastUseIsStale(key: ApiKeyRecord, now: Date): boolean {
  return !key.lastUsedAt || now.getTime() - key.lastUsedAt.getTime() >= LAST_USED_PRECISION_MS;
}
