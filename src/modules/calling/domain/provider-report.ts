/**
 * What the engine keeps of a provider's event, whatever the provider wrote: a provider (or anyone who
 * holds a connection's secret) can send any JSON, and a value PostgreSQL cannot hold would otherwise
 * fail the event with a 500 the provider retries forever. Each rule keeps what is usable and drops
 * the rest; it never refuses the event (docs/providers.md, "What an event may carry").
 */

/** Event times outside these years are not real: 1e20 ms, or a negative epoch, is no call's time. */
const EARLIEST_YEAR = 1970;
const LATEST_YEAR = 9999;

/** The event's time when it is a real date, else when it was received. */
export function eventTime(at: Date | null, receivedAt: Date): Date {
  const time = at instanceof Date ? at.getTime() : NaN;
  if (!at || !Number.isFinite(time)) return receivedAt;
  const year = new Date(time).getUTCFullYear();
  return year >= EARLIEST_YEAR && year <= LATEST_YEAR ? at : receivedAt;
}

/**
 * Longer than any provider's call id (theirs are UUIDs or 34-character sids): an id is indexed, and a
 * few kilobytes of one would fail the index with a 500.
 */
export const MAX_PROVIDER_CALL_ID = 256;

/** Longer than any call: a duration past it is a provider's mistake, kept at this bound. */
export const MAX_CALL_SECONDS = 7 * 24 * 3600;

/** Whole seconds in 0..MAX_CALL_SECONDS; 0 when the provider's value is not a number. */
export function callSeconds(value: number): number {
  if (!Number.isFinite(value)) return 0;
  return Math.min(MAX_CALL_SECONDS, Math.max(0, Math.round(value)));
}

/**
 * Only `https:` and `http:` URLs: a recording link is opened by people (the console links it), and a
 * `javascript:` or `data:` URL from a report would run in their browser.
 */
export function webUrls(urls: readonly unknown[]): string[] {
  return urls.filter((u): u is string => typeof u === 'string' && isWebUrl(u));
}

export function isWebUrl(value: string): boolean {
  const protocol = URL.parse(value)?.protocol;
  return protocol === 'https:' || protocol === 'http:';
}
