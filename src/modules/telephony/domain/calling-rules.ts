/**
 * Whether a due call may be placed now, and if not, until when it waits and which rule holds it: the
 * campaign's calling window and the number's operating hours, the organization's do-not-call list,
 * quiet hours and state hours in every one of the recipient's zones, restricted dates, and the caps on
 * calls per number (docs/compliance.md). One pure function of its inputs: the dispatcher reads the
 * policy, the recipient's zones and the number's recent calls, and tests drive it with any instant.
 */
import {
  CAP_WINDOWS_MS,
  hoursWords,
  type CompliancePolicy,
  type RestrictedDate,
  type StateRule,
} from './calling-policy.js';
import { WEEKDAYS, type WeekSchedule } from '../../../common/schedule/week-schedule.js';
import { instantOf, nextCommonOpening, nextOpening, wallTime } from './calling-window.js';

const DAY_MS = 24 * 3600 * 1000;
/** A target nothing allows within this long ends, as a calling window that never opens does. */
const HORIZON_MS = 14 * DAY_MS;

/** The rules a decision can name; `calling_window` (with operating hours) is the campaign's own. */
export const CALLING_RULES = [
  'calling_window',
  'do_not_call',
  'quiet_hours',
  'state_hours',
  'restricted_date',
  'state_limit',
  'organization_limit',
] as const;
export type CallingRule = (typeof CALLING_RULES)[number];

export interface Recipient {
  /** IANA zones the recipient may be in; never empty (the organization's default when unknown). */
  zones: string[];
  /** The state rules in force for the number's area (empty when the policy turns them off). */
  stateRules: StateRule[];
}

export interface CallingRulesInput {
  now: Date;
  callingWindow: WeekSchedule | null;
  operatingHours: WeekSchedule | null;
  policy: CompliancePolicy;
  recipient: Recipient;
  /** When the organization's calls to this number were placed (the last 7 days are enough). */
  recentCalls: Date[];
  /** Since when the number is on the organization's do-not-call list; null when it is not. */
  doNotCallSince: Date | null;
}

/** The rule that holds a call, in words, with the zone and wall time it was read in. */
export interface Held {
  rule: CallingRule;
  reason: string;
  /** The zone the rule was read in, and the recipient's wall time there at the decision. */
  zone: string | null;
  localTime: string | null;
}

export type CallingDecision =
  | { kind: 'call' }
  | ({ kind: 'defer'; until: Date } & Held)
  /** Never to be called (do-not-call), or nothing allows a call within 14 days. */
  | ({ kind: 'refuse' } & Held);

/** One rule as the decision applies it: when it next allows a call, and why it holds one. */
interface Gate {
  rule: CallingRule;
  zone: string | null;
  /** `t` when the rule allows a call at `t`, else the first instant after it that does; null: never. */
  next(t: Date): Date | null;
  /** Why the rule holds a call at `now` that it allows again at `opening`. */
  words(now: Date, opening: Date | null): string;
}

const calls = (n: number) => `${n} call${n === 1 ? '' : 's'}`;
const utc = (at: Date) => `${at.toISOString().slice(0, 16).replace('T', ' ')} UTC`;
const clock = (at: Date, zone: string) => wallTime(at, zone).slice(11);

function everyDay(start: string, end: string, tz: string): WeekSchedule {
  const schedule: WeekSchedule = { tz };
  for (const day of WEEKDAYS) schedule[day] = [{ start, end }];
  return schedule;
}

/** The first instant at or after `t` on a date not restricted in `zone`. */
function nextUnrestricted(t: Date, zone: string, dates: Set<string>): Date {
  let at = t;
  for (let i = 0; i < 400 && dates.has(wallTime(at, zone).slice(0, 10)); i++) {
    const [y, m, d] = wallTime(at, zone).slice(0, 10).split('-').map(Number);
    at = instantOf(zone, y, m, d + 1, 0);
  }
  return at;
}

/** The first instant at or after `t` when fewer than `limit` of `calls` fall in the last `windowMs`. */
function nextUnderCap(t: Date, calls: Date[], limit: number, windowMs: number): Date {
  const inWindow = calls
    .map((c) => c.getTime())
    .filter((c) => c > t.getTime() - windowMs && c <= t.getTime())
    .sort((a, b) => a - b);
  if (inWindow.length < limit) return t;
  // The oldest calls leave the window one by one; once all but limit - 1 are out, a call may go.
  return new Date(inWindow[inWindow.length - limit] + windowMs);
}

function gatesOf(input: CallingRulesInput): Gate[] {
  const { policy, recipient, recentCalls } = input;
  const gates: Gate[] = [
    {
      rule: 'calling_window',
      zone: input.callingWindow?.tz ?? input.operatingHours?.tz ?? null,
      next: (t) => nextCommonOpening([input.callingWindow, input.operatingHours], t),
      words: (_now, opening) =>
        opening === null
          ? 'calling window and operating hours never overlap'
          : `outside calling window: opens ${utc(opening)}`,
    },
  ];
  if (policy.quietHours) {
    const { start, end } = policy.quietHours;
    for (const zone of recipient.zones) {
      const schedule = everyDay(start, end, zone);
      gates.push({
        rule: 'quiet_hours',
        zone,
        next: (t) => nextOpening(schedule, t),
        words: (now) => `quiet hours: ${clock(now, zone)} in ${zone}, calls from ${start}`,
      });
    }
  }
  for (const rule of recipient.stateRules) {
    if (!rule.hours) continue;
    for (const zone of recipient.zones) {
      const schedule: WeekSchedule = { ...rule.hours, tz: zone };
      gates.push({
        rule: 'state_hours',
        zone,
        next: (t) => nextOpening(schedule, t),
        words: (now) =>
          `${rule.name}: ${clock(now, zone)} in ${zone}, calls ${hoursWords(rule.hours)} (${rule.id})`,
      });
    }
  }
  if (policy.restrictedDates.length > 0) {
    const dates = new Set(policy.restrictedDates.map((d) => d.date));
    const reasons = new Map(policy.restrictedDates.map((d: RestrictedDate) => [d.date, d.reason]));
    for (const zone of recipient.zones) {
      gates.push({
        rule: 'restricted_date',
        zone,
        next: (t) => nextUnrestricted(t, zone, dates),
        words: (now) => {
          const date = wallTime(now, zone).slice(0, 10);
          return `restricted date ${date}: ${reasons.get(date)} (in ${zone})`;
        },
      });
    }
  }
  const limited = recipient.stateRules.filter((r) => r.maxCallsPer24h !== null);
  if (limited.length > 0) {
    const strictest = limited.reduce((a, b) => (a.maxCallsPer24h! <= b.maxCallsPer24h! ? a : b));
    const limit = strictest.maxCallsPer24h!;
    gates.push({
      rule: 'state_limit',
      zone: null,
      next: (t) => nextUnderCap(t, recentCalls, limit, CAP_WINDOWS_MS.per24h),
      words: (_now, opening) =>
        `${strictest.name}: ${calls(limit)} in 24 h, next at ${opening ? utc(opening) : 'never'} (${strictest.id})`,
    });
  }
  const caps: [number | null, number, string][] = [
    [policy.maxCallsPerNumber.per24h, CAP_WINDOWS_MS.per24h, '24 h'],
    [policy.maxCallsPerNumber.per7d, CAP_WINDOWS_MS.per7d, '7 days'],
  ];
  for (const [limit, windowMs, span] of caps) {
    if (limit === null) continue;
    gates.push({
      rule: 'organization_limit',
      zone: null,
      next: (t) => nextUnderCap(t, recentCalls, limit, windowMs),
      words: (_now, opening) =>
        `organization limit: ${calls(limit)} per number in ${span}, next at ${opening ? utc(opening) : 'never'}`,
    });
  }
  return gates;
}

function held(gate: Gate, now: Date, opening: Date | null): Held {
  return {
    rule: gate.rule,
    reason: gate.words(now, opening),
    zone: gate.zone,
    localTime: gate.zone === null ? null : wallTime(now, gate.zone),
  };
}

/**
 * The decision for one due call. The first rule (in the order above) that holds the call now names
 * the deferral; the call waits until every rule allows it at once, in every zone of the recipient
 * (found by moving to the latest of the rules' next openings until all agree). When that is more than
 * 14 days away, or a rule never opens, the call is refused.
 */
export function decideCall(input: CallingRulesInput): CallingDecision {
  const { now } = input;
  if (input.doNotCallSince !== null) {
    return {
      kind: 'refuse',
      rule: 'do_not_call',
      reason: `on the do-not-call list since ${utc(input.doNotCallSince)}`,
      zone: null,
      localTime: null,
    };
  }
  const gates = gatesOf(input);
  let first: { gate: Gate; opening: Date | null } | null = null;
  let t = now;
  for (let round = 0; round < 1000; round++) {
    let latest = t;
    for (const gate of gates) {
      const opening = gate.next(t);
      if (round === 0 && first === null && (opening === null || opening > now)) {
        first = { gate, opening };
      }
      if (opening === null) {
        return { kind: 'refuse', ...held(gate, now, null) };
      }
      if (opening > latest) latest = opening;
    }
    if (latest.getTime() === t.getTime()) break;
    if (latest.getTime() - now.getTime() > HORIZON_MS) {
      const blocking = first!;
      const reason = `${blocking.gate.words(now, blocking.opening)}; no time within 14 days allows a call`;
      return { kind: 'refuse', ...held(blocking.gate, now, blocking.opening), reason };
    }
    t = latest;
  }
  if (first === null) return { kind: 'call' };
  // The words name the rule that holds the call now; the opening they give is the rule's own, the
  // deferral's time is when every rule agrees.
  return { kind: 'defer', until: t, ...held(first.gate, now, first.opening) };
}
