import type { WeekSchedule } from '../../../common/schedule/week-schedule.js';
import { nextOpening } from '../../telephony/domain/calling-window.js';

/** How far ahead an estimate looks; beyond it the answer is "unknown" (null). */
const HORIZON_MS = 60 * 24 * 3600 * 1000;
/** The calling window is walked in steps this long while it is open. */
const STEP_MS = 15 * 60 * 1000;

/**
 * When `remainingCalls` calls at `callsPerMinute` are done, counting only time the calling window is
 * open (no window: always open), from `now`. null: nothing to do, no known rate, or not within 60 days.
 */
export function estimateCompletion(
  window: WeekSchedule | null,
  now: Date,
  remainingCalls: number,
  callsPerMinute: number | null,
): Date | null {
  if (remainingCalls <= 0 || callsPerMinute === null || callsPerMinute <= 0) return null;
  let needMs = (remainingCalls / callsPerMinute) * 60_000;
  const horizon = now.getTime() + HORIZON_MS;
  let t = now.getTime();
  while (t <= horizon) {
    const open = nextOpening(window, new Date(t));
    if (open === null) return null;
    if (open.getTime() > t) {
      t = open.getTime();
      continue;
    }
    const take = Math.min(STEP_MS, needMs);
    needMs -= take;
    t += take;
    if (needMs <= 0) return new Date(Math.ceil(t / 1000) * 1000);
  }
  return null;
}

/** Remaining targets that cannot be called before `at`: a calling rule holds them (`rule`), or a retry. */
export interface LaterStart {
  at: Date;
  targets: number;
  /** The calling rule holding them (`quiet_hours`), null for a target simply scheduled later. */
  rule: string | null;
}

export interface HonestEstimate {
  /** When the remaining calls are done, never before the last of them may start (null: unknown). */
  at: Date | null;
  /**
   * The latest time a calling rule holds a remaining target to, when the end is later than the rate
   * alone gives (or that is unknown); else null.
   */
  heldUntil: Date | null;
  /** Then the targets the rules hold, by rule (`quiet_hours`: 3); else empty. */
  heldByRule: Record<string, number>;
}

/**
 * When `remainingCalls` calls are done at `callsPerMinute` in the calling window, when some of them
 * cannot start before their `laterStarts`: the calls are served in the order they may start, the
 * held ones joining the queue at their time, so the end is never before the last of them may start,
 * and calls held to the same time pile up behind it (the rate alone would end earlier). One walk
 * forward in time, however many start times.
 */
export function honestCompletion(
  window: WeekSchedule | null,
  now: Date,
  remainingCalls: number,
  callsPerMinute: number | null,
  laterStarts: LaterStart[],
): HonestEstimate {
  const rateOnly = estimateCompletion(window, now, remainingCalls, callsPerMinute);
  const held = laterStarts
    .filter((s) => s.at > now && s.targets > 0)
    .sort((a, b) => a.at.getTime() - b.at.getTime());
  const at =
    rateOnly === null ? null : queueEnd(window, now, remainingCalls, callsPerMinute!, held);
  // The rules' holds are said when the end is later than the rate alone gives, or that is unknown.
  const later = rateOnly === null || at === null || at > rateOnly;
  const ruled = later ? held.filter((s) => s.rule !== null) : [];
  const heldByRule: Record<string, number> = {};
  for (const s of ruled) heldByRule[s.rule!] = (heldByRule[s.rule!] ?? 0) + s.targets;
  const latest = ruled.reduce<Date | null>((m, s) => (m === null || s.at > m ? s.at : m), null);
  return { at, heldUntil: latest, heldByRule };
}

/** The fluid queue behind `honestCompletion`: served at `callsPerMinute` while the window is open. */
function queueEnd(
  window: WeekSchedule | null,
  now: Date,
  remainingCalls: number,
  callsPerMinute: number,
  held: LaterStart[],
): Date | null {
  const msPerCall = 60_000 / callsPerMinute;
  const heldCalls = held.reduce((n, s) => n + s.targets, 0);
  let needMs = Math.max(0, remainingCalls - heldCalls) * msPerCall;
  let t = now.getTime();
  const horizon = t + HORIZON_MS;
  // What the window was last found to be: closed until `opensAt`, or (as estimateCompletion walks
  // it) open for a step from when it was asked, until `openUntil`. Asked again only past them, so
  // many start times cost no more window reads than the walk itself.
  let opensAt = -Infinity;
  let openUntil = -Infinity;
  // Serves the queue until `until` or until it is empty; false when the end is not within reach.
  const serveUntil = (until: number): boolean => {
    while (needMs > 0 && t < until) {
      if (t > horizon) return false;
      if (t >= openUntil && t >= opensAt) {
        const open = nextOpening(window, new Date(t));
        if (open === null) return false;
        if (open.getTime() > t) opensAt = open.getTime();
        else openUntil = t + STEP_MS;
      }
      if (t < opensAt) {
        t = Math.min(opensAt, until);
        continue;
      }
      const take = Math.min(openUntil - t, needMs, until - t);
      needMs -= take;
      t += take;
    }
    return true;
  };
  for (const s of held) {
    if (!serveUntil(s.at.getTime())) return null;
    t = Math.max(t, s.at.getTime());
    needMs += s.targets * msPerCall;
  }
  if (!serveUntil(Infinity) || t > horizon) return null;
  return new Date(Math.ceil(t / 1000) * 1000);
}

/**
 * Calls a minute the campaign is expected to make: the rate of its recent calls, or, before any, what
 * `max_concurrent_calls` calls of the average length make (null: neither is known).
 */
export function expectedCallsPerMinute(
  recentCallsPerMinute: number,
  maxConcurrentCalls: number,
  averageCallSeconds: number | null,
): number | null {
  if (recentCallsPerMinute > 0) return recentCallsPerMinute;
  if (averageCallSeconds !== null && averageCallSeconds > 0)
    return (maxConcurrentCalls * 60) / averageCallSeconds;
  return null;
}
