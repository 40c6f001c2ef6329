import type { WeekSchedule } from '../../../common/schedule/week-schedule.js';
import { isFailedConnect } from './call-outcome.js';

export interface DialTarget {
  phoneNumber: string | null;
  phoneOperatingHours: WeekSchedule | null;
  fallbackPhoneNumber: string | null;
  fallbackOperatingHours: WeekSchedule | null;
}

export interface PreviousAttempt {
  to: string;
  outcome: string | null;
}

export interface Dial {
  number: string;
  operatingHours: WeekSchedule | null;
  isFallback: boolean;
}

/**
 * Which number the next attempt dials: the primary number first; after a failed connect the other
 * number (the fallback, or back to the primary); otherwise the number of the previous attempt.
 */
export function chooseNumber(target: DialTarget, previous: PreviousAttempt | null): Dial | null {
  const primary: Dial | null = target.phoneNumber
    ? { number: target.phoneNumber, operatingHours: target.phoneOperatingHours, isFallback: false }
    : null;
  const fallback: Dial | null = target.fallbackPhoneNumber
    ? {
        number: target.fallbackPhoneNumber,
        operatingHours: target.fallbackOperatingHours,
        isFallback: true,
      }
    : null;
  if (!previous) return primary ?? fallback;
  const last =
    fallback && previous.to === fallback.number && previous.to !== primary?.number
      ? fallback
      : primary;
  if (isFailedConnect(previous.outcome)) {
    const other = last === primary ? fallback : primary;
    return other ?? last ?? fallback;
  }
  return last ?? fallback;
}
