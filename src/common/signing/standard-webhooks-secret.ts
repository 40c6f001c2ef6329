import { Webhook } from 'standardwebhooks';

/** What a signing secret must be, in the words of a 422 and of a connection that cannot be used. */
export const STANDARD_WEBHOOKS_SECRET_RULE =
  'must be a Standard Webhooks secret: whsec_ followed by base64 (or the base64 alone), e.g. whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw';

/**
 * Whether standardwebhooks can sign with `secret` (its own constructor decides: `whsec_` is taken off,
 * the rest must decode as base64 to at least one byte). The library is the judge, so what the API
 * accepts is exactly what the call provider can use.
 */
export function isStandardWebhooksSecret(secret: unknown): boolean {
  if (typeof secret !== 'string') return false;
  try {
    new Webhook(secret);
    return true;
  } catch {
    return false;
  }
}
