/**
 * The organization's calling rules as the calling decision reads them (docs/compliance.md): quiet
 * hours, caps per number, restricted dates and the state rules in force. The compliance module owns
 * the policy (its defaults, storage and the state rule pack); these are the words the pure decision
 * (calling-rules.ts) and the compliance module share.
 */
import type { TimeInterval, Weekday } from '../../../common/schedule/week-schedule.js';
import { WEEKDAYS } from '../../../common/schedule/week-schedule.js';

export interface QuietHours {
  /** Local `HH:MM` in the recipient's zone: calls from this time... */
  start: string;
  /** ...until this one (exclusive). */
  end: string;
}

export interface CallCaps {
  /** Calls placed to one number across every campaign of the organization, rolling 24 hours. */
  per24h: number | null;
  /** The same over a rolling 7 days. */
  per7d: number | null;
}

export interface RestrictedDate {
  /** `YYYY-MM-DD`, read in each of the recipient's zones. */
  date: string;
  reason: string;
}

const DAY_MS = 24 * 3600 * 1000;
/** The caps' windows: `per_24h` and `per_7d`, rolling. Calls older than a week never count. */
export const CAP_WINDOWS_MS = { per24h: DAY_MS, per7d: 7 * DAY_MS } as const;

export interface CompliancePolicy {
  /** Null turns the quiet hours off: calls at any hour of the recipient's day (flagged loudly). */
  quietHours: QuietHours | null;
  stateRules: boolean;
  maxCallsPerNumber: CallCaps;
  restrictedDates: RestrictedDate[];
  defaultTimeZone: string;
  /** ISO 3166-1 alpha-2: the country numbers written without `+` are read in (`(617) 253-1217`). */
  defaultCountry: string;
}

export interface StateRule {
  id: string;
  /** USPS code: `FL`. */
  state: string;
  /** As the geocoder names it: `Florida`. */
  name: string;
  /** `YYYY-MM-DD`: the rule applies from this date (UTC) on. */
  effective: string;
  /** Allowed local hours per weekday; a weekday left out allows no calls. Null: no hours rule. */
  hours: { [day in Weekday]?: TimeInterval[] } | null;
  /** Calls to one number in a rolling 24 hours; null: no limit. */
  maxCallsPer24h: number | null;
  citation: { text: string; url: string };
}

/** Every weekday's hours, for the words of a rule (`08:00-20:00`, or per day when they differ). */
export function hoursWords(hours: StateRule['hours']): string {
  if (!hours) return 'any hour';
  const perDay = WEEKDAYS.map(
    (d) => (hours[d] ?? []).map((i) => `${i.start}-${i.end}`).join(', ') || 'no calls',
  );
  if (perDay.every((w) => w === perDay[0])) return perDay[0];
  return WEEKDAYS.map((d, i) => `${d.slice(0, 3)} ${perDay[i]}`).join('; ');
}
