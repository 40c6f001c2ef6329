/**
 * Why a target that is not final is not being called right now, in words (issue 12, "why not called
 * yet"): the single-target read's `waiting_reason`, and the words of the timeline's events. Pure
 * functions of the target, its campaign and an instant, so time zones and DST are tested without a
 * clock.
 */
import type { WeekSchedule } from '../../../common/schedule/week-schedule.js';
import type { Campaign } from '../../campaign/domain/campaign.js';
// The calling engine's window rules are pure functions; reading them here keeps one definition of
// "open" for the dispatcher that defers a call and the words that explain it.
import { nextCommonOpening } from '../../telephony/domain/calling-window.js';
import type { Target } from './target.js';

// One formatter per zone: making an Intl.DateTimeFormat costs far more than formatting with it, and
// a timeline words every event in its campaign's zone. At most 1,000 kept (Intl reads zone names in
// any case, so spellings of valid zones are unbounded).
const weekdayClocks = new Map<string, Intl.DateTimeFormat>();
const MAX_WEEKDAY_CLOCKS = 1_000;

function weekdayClock(tz: string): Intl.DateTimeFormat {
  let clock = weekdayClocks.get(tz);
  if (!clock) {
    clock = new Intl.DateTimeFormat('en-US', {
      timeZone: tz,
      hourCycle: 'h23',
      weekday: 'short',
      hour: '2-digit',
      minute: '2-digit',
    });
    if (weekdayClocks.size >= MAX_WEEKDAY_CLOCKS) weekdayClocks.clear();
    weekdayClocks.set(tz, clock);
  }
  return clock;
}

/** `2026-11-23 14:05 UTC` */
export function utcWords(at: Date): string {
  return `${at.toISOString().slice(0, 10)} ${at.toISOString().slice(11, 16)} UTC`;
}

/** `Mon 09:00 US/Eastern`: the weekday and wall time of `at` in `tz`. */
export function localWords(at: Date, tz: string): string {
  const parts = weekdayClock(tz).formatToParts(at);
  const part = (type: string) => parts.find((p) => p.type === type)?.value ?? '';
  return `${part('weekday')} ${part('hour')}:${part('minute')} ${tz}`;
}

/**
 * `outside calling window: opens Mon 09:00 US/Eastern` when the campaign's window and the number's
 * operating hours are not both open at `at`; told in the campaign window's zone (the one an operator
 * set), else the number's. Null when open now; `calling window and operating hours never overlap`
 * when they do not within a fortnight.
 */
export function outsideWindowReason(
  campaignWindow: WeekSchedule | null,
  operatingHours: WeekSchedule | null,
  at: Date,
): string | null {
  const opening = nextCommonOpening([campaignWindow, operatingHours], at);
  if (opening === null) return 'calling window and operating hours never overlap';
  if (opening.getTime() <= at.getTime()) return null;
  const tz = campaignWindow?.tz ?? operatingHours?.tz ?? 'UTC';
  return `outside calling window: opens ${localWords(opening, tz)}`;
}

/** `retry 2 of 3 after NO_RESPONSE`: the attempt that comes next, after the last call's outcome. */
export function retryWords(nextAttempt: number, maxAttempts: number, lastOutcome: string): string {
  return `retry ${nextAttempt} of ${maxAttempts} after ${lastOutcome}`;
}

export const NOT_LAUNCHED = 'not launched: trigger calls or add with launch=true';
export const CAMPAIGN_PAUSED = 'campaign paused';
export const CAMPAIGN_CANCELLED = 'campaign cancelled';
export const waitingForStep = (step: string | null) => `waiting for step ${step ?? '(none)'}`;
export const atConcurrencyCap = (inFlight: number, max: number) =>
  `campaign at max_concurrent_calls ${inFlight}/${max}`;

export interface WaitingContext {
  campaign: Pick<Campaign, 'state' | 'maxAttempts' | 'maxConcurrentCalls' | 'callingWindow'>;
  /** The campaign's targets `In Progress` or `Post-processing` now. */
  inFlight: number;
  now: Date;
}

/** The outcome code of the target's last call (`NO_RESPONSE`), from its categorisation. */
function lastCallOutcome(target: Target): string | null {
  const code = target.categorization?.['outcome'];
  return typeof code === 'string' ? code : target.outcome;
}

/**
 * Why the target is not being called now; null when it is final (`Finished`, `Failed`, `To review`)
 * or in a call. The first reason that holds wins, in the order the dispatcher applies them: campaign
 * state, due time (a retry's or a deferral's), the calling window, the concurrency cap.
 */
export function waitingReason(target: Target, context: WaitingContext): string | null {
  const { campaign, now } = context;
  switch (target.status) {
    case 'Pending':
      return campaign.state === 'cancelled' ? CAMPAIGN_CANCELLED : NOT_LAUNCHED;
    case 'Waiting':
      return waitingForStep(target.currentStep);
    case 'SMS Scheduled':
      return 'SMS scheduled';
    case 'Scheduled':
      break;
    default:
      return null;
  }
  if (campaign.state === 'paused') return CAMPAIGN_PAUSED;
  if (campaign.state === 'cancelled') return CAMPAIGN_CANCELLED;
  const due = target.scheduledTime ?? now;
  if (due.getTime() > now.getTime()) {
    // A rule of the organization's calling policy deferred it: its words, as the dispatcher wrote them.
    if (target.hold) return target.hold.reason;
    const outcome = lastCallOutcome(target);
    if (target.attempts > 0 && outcome !== null) {
      return `${retryWords(target.attempts + 1, campaign.maxAttempts, outcome)} at ${utcWords(due)}`;
    }
    return (
      outsideWindowReason(campaign.callingWindow, target.phoneOperatingHours, now) ??
      `scheduled for ${utcWords(due)}`
    );
  }
  const closed = outsideWindowReason(campaign.callingWindow, target.phoneOperatingHours, now);
  if (closed !== null) return closed;
  if (context.inFlight >= campaign.maxConcurrentCalls) {
    return atConcurrencyCap(context.inFlight, campaign.maxConcurrentCalls);
  }
  return 'due: the next dispatcher round calls it';
}
