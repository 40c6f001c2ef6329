/**
 * Date filters take `YYYY-MM-DD` or a full date-time. Bounds are inclusive, and a date-only upper bound
 * covers that whole day (DECISIONS: wire conventions). A date-time without offset is read as UTC.
 *
 * JS dates stop at milliseconds while PostgreSQL keeps microseconds, so an upper bound is inclusive to
 * the millisecond: adapters compare `column < bound + 1 ms`, and `23:59:59.999` takes in the whole day.
 */
const DATE_ONLY = /^\d{4}-\d{2}-\d{2}$/;

export function lowerBound(value: string | undefined | null): Date | null {
  if (!value) return null;
  return DATE_ONLY.test(value) ? new Date(`${value}T00:00:00.000Z`) : parseDateTime(value);
}

export function upperBound(value: string | undefined | null): Date | null {
  if (!value) return null;
  return DATE_ONLY.test(value) ? new Date(`${value}T23:59:59.999Z`) : parseDateTime(value);
}

function parseDateTime(value: string): Date {
  const normalized = value.replace(' ', 'T');
  const hasOffset = /(Z|[+-]\d{2}:?\d{2})$/i.test(normalized);
  return new Date(hasOffset ? normalized : `${normalized}Z`);
}
