/**
 * A weekly schedule in a time zone (the reference OpenAPI's WeekSchedule): a campaign's calling window
 * and a phone number's operating hours. Intervals are local `HH:MM` times; `end` is exclusive.
 */
export const WEEKDAYS = [
  'monday',
  'tuesday',
  'wednesday',
  'thursday',
  'friday',
  'saturday',
  'sunday',
] as const;
export type Weekday = (typeof WEEKDAYS)[number];

export interface TimeInterval {
  start: string;
  end: string;
}

export type WeekSchedule = { [day in Weekday]?: TimeInterval[] } & { tz: string };

export const DEFAULT_TZ = 'US/Eastern';

/** A local `HH:MM` time of a schedule, `24:00` ending the day. */
export const HH_MM = /^([01]\d|2[0-3]):[0-5]\d$|^24:00$/;

// The zones found valid: every schedule a request, a row or a target carries is checked, and making
// an Intl.DateTimeFormat to ask costs far more than a look-up. Only valid ones, and at most 1,000:
// Intl reads zone names in any case, so even valid spellings are as many as clients care to send.
const validTimeZones = new Set<string>();
const MAX_REMEMBERED_ZONES = 1_000;

export function isValidTimeZone(tz: string): boolean {
  if (validTimeZones.has(tz)) return true;
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: tz });
  } catch {
    return false;
  }
  if (validTimeZones.size >= MAX_REMEMBERED_ZONES) validTimeZones.clear();
  validTimeZones.add(tz);
  return true;
}

/**
 * `unknown time zone "Mars/Olympus"` when `value` is a string naming no IANA zone, else null (a
 * non-string is the type check's to report). Used by every field that takes a zone.
 */
export function timeZoneError(value: unknown): string | null {
  return typeof value !== 'string' || isValidTimeZone(value)
    ? null
    : `unknown time zone ${JSON.stringify(value)}`;
}

/** What is wrong with a schedule, as a sentence, or null. Used by DTO validators. */
export function weekScheduleError(value: unknown): string | null {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    return 'a schedule must be an object with weekday keys and tz';
  }
  const v = value as Record<string, unknown>;
  for (const key of Object.keys(v)) {
    if (key !== 'tz' && !(WEEKDAYS as readonly string[]).includes(key)) {
      return `unknown schedule key "${key}"`;
    }
  }
  if (v.tz !== undefined && (typeof v.tz !== 'string' || !isValidTimeZone(v.tz))) {
    return `unknown time zone ${JSON.stringify(v.tz)}`;
  }
  for (const day of WEEKDAYS) {
    const intervals = v[day];
    if (intervals === undefined) continue;
    if (!Array.isArray(intervals)) return `${day} must be a list of {start, end} intervals`;
    for (const interval of intervals) {
      const { start, end } = (interval ?? {}) as Record<string, unknown>;
      if (
        typeof start !== 'string' ||
        typeof end !== 'string' ||
        !HH_MM.test(start) ||
        !HH_MM.test(end)
      ) {
        return `${day} intervals need start and end as HH:MM`;
      }
      if (start >= end) return `${day} interval ${start}-${end} must end after it starts`;
    }
  }
  return null;
}

/** Fills the default time zone; call after `weekScheduleError` returned null. */
export function normalizeWeekSchedule(value: Record<string, unknown>): WeekSchedule {
  return {
    ...(value as object),
    tz: (value.tz as string | undefined) ?? DEFAULT_TZ,
  } as WeekSchedule;
}
