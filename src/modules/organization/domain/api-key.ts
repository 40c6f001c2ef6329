import { createHash, randomBytes } from 'crypto';

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
  revokedAt: Date | null;
}
