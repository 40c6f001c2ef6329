import { randomBytes } from 'crypto';

/** Standard Webhooks secret: `whsec_` + base64 of 32 random bytes. */
export function generateWebhookSecret(): string {
  return 'whsec_' + randomBytes(32).toString('base64');
}
