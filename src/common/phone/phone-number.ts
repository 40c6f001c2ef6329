import { FieldPath, InvalidInputError } from '../errors/domain-errors.js';

/**
 * DECISIONS: after removing spaces, dashes, dots and parentheses a number must be `+` and 7..15 digits
 * (E.164). Returns the normalised number, or null when it is not one.
 */
export function normalizePhoneNumber(raw: string): string | null {
  const compact = raw.replace(/[\s\-.()]/g, '');
  return /^\+\d{7,15}$/.test(compact) ? compact : null;
}

export const PHONE_NUMBER_RULE =
  'phone number must be + followed by 7 to 15 digits (spaces, dashes, dots and parentheses are ignored)';

/** The normalised number, or the service's 422 at `field` (a domain path) when it is not one. */
export function normalizedPhoneNumberAt(raw: string, field: FieldPath): string {
  const normalized = normalizePhoneNumber(raw);
  if (!normalized) throw new InvalidInputError(PHONE_NUMBER_RULE, field, raw);
  return normalized;
}
