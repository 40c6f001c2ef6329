/**
 * When a call may be placed: the campaign's calling window and the number's operating hours, each a
 * WeekSchedule in its own time zone. Pure functions of an instant, so DST and zone changes are handled
 * by Intl, and tests drive them with any instant.
 */
import { WEEKDAYS, WeekSchedule } from '../../../common/schedule/week-schedule.js';

const formatters = new Map<string, Intl.DateTimeFormat>();

function formatter(tz: string): Intl.DateTimeFormat {
  let f = formatters.get(tz);
  if (!f) {
    f = new Intl.DateTimeFormat('en-US', {
      timeZone: tz,
      hourCycle: 'h23',
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
      second: 'numeric',
    });
    formatters.set(tz, f);
  }
  return f;
}

interface LocalTime {
  year: number;
  month: number;
  day: number;
  hour: number;
  minute: number;
  second: number;
}

function localTime(at: Date, tz: string): LocalTime {
  const parts: Record<string, number> = {};
  for (const p of formatter(tz).formatToParts(at)) {
    if (p.type !== 'literal') parts[p.type] = Number(p.value);
  }
  const { year, month, day, hour, minute, second } = parts;
  return { year, month, day, hour, minute, second };
}

/** `2026-12-25 06:12`: the wall date and time of `at` in `tz`. */
export function wallTime(at: Date, tz: string): string {
  const l = localTime(at, tz);
  const two = (n: number) => String(n).padStart(2, '0');
  return `${l.year}-${two(l.month)}-${two(l.day)} ${two(l.hour)}:${two(l.minute)}`;
}

/** Offset of `tz` from UTC at `at`, in milliseconds. */
function offsetMs(at: Date, tz: string): number {
  return offsetAt(localTime(at, tz), at);
}

/** How far ahead of UTC the wall clock `l` reads at `at`, in milliseconds (of whole seconds). */
const offsetAt = (l: LocalTime, at: Date) =>
  Date.UTC(l.year, l.month - 1, l.day, l.hour, l.minute, l.second) -
  Math.floor(at.getTime() / 1000) * 1000;

/**
 * The instant of a local wall time. A time skipped by a DST jump resolves to the same wall time in the
 * offset before the jump (so 02:30 on a spring-forward night is 03:30 local): the window still opens.
 */
export function instantOf(
  tz: string,
  year: number,
  month: number,
  day: number,
  minutes: number,
): Date {
  const wall = Date.UTC(year, month - 1, day, 0, minutes);
  const day_ = 24 * 3600 * 1000;
  // The offsets in force a day before and a day after: the same unless a DST change is near.
  const before = wall - offsetMs(new Date(wall - day_), tz);
  const after = wall - offsetMs(new Date(wall + day_), tz);
  const valid = [before, after].filter((t) => t + offsetMs(new Date(t), tz) === wall);
  return new Date(valid.length > 0 ? Math.min(...valid) : before);
}

const toMinutes = (hhmm: string) => Number(hhmm.slice(0, 2)) * 60 + Number(hhmm.slice(3, 5));

/** JS getUTCDay (0 = Sunday) to the schedule's weekday keys (monday first). */
const weekdayOf = (year: number, month: number, day: number) =>
  WEEKDAYS[(new Date(Date.UTC(year, month - 1, day)).getUTCDay() + 6) % 7];

const DAY_MS = 24 * 3600 * 1000;

/**
 * Open at `at` by its local wall clock: today's intervals hold the local time. The answer the search
 * below gives whenever no DST change lies within a day of `at` (the offset the same a day before and
 * after), which the check asks first; near a change the search decides. The dispatcher asks this of
 * every due call and most are open: one formatting of the instant instead of a dozen.
 */
function openByWallClock(schedule: WeekSchedule, local: LocalTime, at: Date): boolean {
  const minutes = local.hour * 60 + local.minute;
  const intervals = schedule[weekdayOf(local.year, local.month, local.day)] ?? [];
  if (!intervals.some((i) => toMinutes(i.start) <= minutes && minutes < toMinutes(i.end))) {
    return false;
  }
  return noOffsetChangeNear(schedule.tz, at, local);
}

/** Per zone and hour: whether the zone's offset is the same a day either side of that hour. */
const steadyHours = new Map<string, boolean>();

function noOffsetChangeNear(tz: string, at: Date, local: LocalTime): boolean {
  const hour = Math.floor(at.getTime() / 3_600_000);
  const key = `${tz}|${hour}`;
  let steady = steadyHours.get(key);
  if (steady === undefined) {
    const offset = offsetAt(local, at);
    // From the hour's start to its end, a day either side: the whole hour shares the answer.
    const from = hour * 3_600_000 - DAY_MS;
    const to = (hour + 1) * 3_600_000 + DAY_MS;
    steady = offsetMs(new Date(from), tz) === offset && offsetMs(new Date(to), tz) === offset;
    if (steadyHours.size >= 10_000) steadyHours.clear();
    steadyHours.set(key, steady);
  }
  return steady;
}

/**
 * `at` itself when the schedule is open at `at`, else the next instant it opens, or null when it never
 * opens. No schedule means always open.
 */
export function nextOpening(schedule: WeekSchedule | null | undefined, at: Date): Date | null {
  if (!schedule) return at;
  const tz = schedule.tz;
  const today = localTime(at, tz);
  if (openByWallClock(schedule, today, at)) return at;
  let best: Date | null = null;
  // Yesterday too: an interval ending at 24:00 or a DST shift can still cover `at`.
  for (let offset = -1; offset <= 7; offset++) {
    const date = new Date(Date.UTC(today.year, today.month - 1, today.day + offset));
    const [y, m, d] = [date.getUTCFullYear(), date.getUTCMonth() + 1, date.getUTCDate()];
    for (const interval of schedule[weekdayOf(y, m, d)] ?? []) {
      const start = instantOf(tz, y, m, d, toMinutes(interval.start));
      const end = instantOf(tz, y, m, d, toMinutes(interval.end));
      if (start <= at && at < end) return at;
      if (start > at && (best === null || start < best)) best = start;
    }
    if (best !== null && offset >= 1) break;
  }
  return best;
}

/** The first instant at or after `at` when every schedule is open, or null within a fortnight. */
export function nextCommonOpening(
  schedules: (WeekSchedule | null | undefined)[],
  at: Date,
): Date | null {
  const horizon = at.getTime() + 14 * 24 * 3600 * 1000;
  let t = at;
  for (let i = 0; i < 100 && t.getTime() <= horizon; i++) {
    const openings = schedules.map((s) => nextOpening(s, t));
    if (openings.some((o) => o === null)) return null;
    const latest = new Date(Math.max(...openings.map((o) => o!.getTime())));
    if (latest.getTime() === t.getTime()) return t;
    t = latest;
  }
  return null;
}
