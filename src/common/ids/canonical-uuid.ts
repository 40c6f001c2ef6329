/** 32 hex digits, dashes optional, as PostgreSQL reads a uuid (the validators decide what is refused). */
const UUID_DIGITS = /^([0-9a-f]{8})-?([0-9a-f]{4})-?([0-9a-f]{4})-?([0-9a-f]{4})-?([0-9a-f]{12})$/i;

/**
 * A UUID in the canonical form PostgreSQL returns (lower case, dashed), from any form the API
 * accepts as PostgreSQL does (any case, dashes optional); null when `value` is not a UUID, so a
 * malformed id names nothing and never reaches a uuid column.
 */
export function canonicalUuid(value: string): string | null {
  const groups = UUID_DIGITS.exec(value);
  return groups ? groups.slice(1).join('-').toLowerCase() : null;
}

/**
 * True when `value` is a UUID in a form PostgreSQL reads. Here, not among the request validators, so
 * that a service checking an id does not load class-validator and Swagger.
 */
export function isUuid(value: unknown): value is string {
  return typeof value === 'string' && UUID_DIGITS.test(value);
}
