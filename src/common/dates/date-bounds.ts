/**
 * Date filters take what pydantic's `datetime` takes (see `dateTimeError` in py-validators): `YYYY-MM-DD`,
 * an ISO-8601 date-time, or a unix timestamp in seconds or milliseconds. Bounds are inclusive, and a
 * date-only upper bound covers that whole day (DECISIONS: wire conventions). A date-time without offset
 * is read as UTC.
 *
 * JS dates stop at milliseconds while PostgreSQL keeps microseconds, so an upper bound is inclusive to
 * the millisecond: adapters compare `column < bound + 1 ms`, and `23:59:59.999` takes in the whole day.
 */
const DATE_ONLY = /^\d{4}-\d{2}-\d{2}$/;
export const TIMESTAMP = /^[+-]?\d+(?:\.\d+)?$/;
export const DATE_TIME =
  /^(\d{4})-(\d{2})-(\d{2})[Tt_ ](\d{2}):(\d{2})(?::(\d{2})(?:[.,](\d+))?)?(?:([Zz])|([+-])(\d{2}):?(\d{2}))?$/;
/** Beyond this a unix timestamp is read as milliseconds, as pydantic does. */
export const MILLISECONDS_FROM = 2e10;

export function lowerBound(value: string | number | undefined | null): Date | null {
  if (value === undefined || value === null || value === '') return null;
  if (typeof value === 'string' && DATE_ONLY.test(value)) return new Date(`${value}T00:00:00.000Z`);
  return parseDateTime(value);
}

export function upperBound(value: string | number | undefined | null): Date | null {
  if (value === undefined || value === null || value === '') return null;
  if (typeof value === 'string' && DATE_ONLY.test(value)) return new Date(`${value}T23:59:59.999Z`);
  return parseDateTime(value);
}

function parseDateTime(value: string | number): Date {
  if (typeof value === 'number' || TIMESTAMP.test(value)) {
    const n = Number(value);
    return new Date(Math.abs(n) > MILLISECONDS_FROM ? n : n * 1000);
  }
  const m = DATE_TIME.exec(value);
  if (!m) return new Date(NaN);
  const [, y, mo, d, h, mi, s, fraction, , sign, oh, om] = m;
  const ms = fraction ? Number(fraction.slice(0, 3).padEnd(3, '0')) : 0;
  // Not Date.UTC(year, ...): it reads years 0-99 as 1900-1999.
  const date = new Date(0);
  date.setUTCFullYear(+y, +mo - 1, +d);
  date.setUTCHours(+h, +mi, s ? +s : 0, ms);
  const utc = date.getTime();
  const offsetMinutes = sign ? (sign === '-' ? -1 : 1) * (+oh * 60 + +om) : 0;
  return new Date(utc - offsetMinutes * 60_000);
}
