import type { WeekSchedule } from '../../../common/schedule/week-schedule.js';
import { nextOpening } from './calling-window.js';

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
