import { aCampaign, aTarget } from '../../../testing/test-data.js';
import type { WeekSchedule } from '../../../common/schedule/week-schedule.js';
import { localWords, outsideWindowReason, utcWords, waitingReason } from './waiting-reason.js';

const weekdays9to17 = (tz: string): WeekSchedule => ({
  tz,
  monday: [{ start: '09:00', end: '17:00' }],
  tuesday: [{ start: '09:00', end: '17:00' }],
  wednesday: [{ start: '09:00', end: '17:00' }],
  thursday: [{ start: '09:00', end: '17:00' }],
  friday: [{ start: '09:00', end: '17:00' }],
});

describe('outsideWindowReason', () => {
  it("names the next opening in the campaign window's zone, across a DST change", () => {
    // Saturday 7 March 2026, 12:00 New York (EST); clocks go forward on Sunday 8 March.
    const at = new Date('2026-03-07T17:00:00Z');
    expect(outsideWindowReason(weekdays9to17('US/Eastern'), null, at)).toBe(
      'outside calling window: opens Mon 09:00 US/Eastern',
    );
    // Monday 09:00 EDT is 13:00 UTC (14:00 the week before): open then, closed a minute earlier.
    expect(
      outsideWindowReason(weekdays9to17('US/Eastern'), null, new Date('2026-03-09T13:00:00Z')),
    ).toBeNull();
    expect(
      outsideWindowReason(weekdays9to17('US/Eastern'), null, new Date('2026-03-09T12:59:00Z')),
    ).toBe('outside calling window: opens Mon 09:00 US/Eastern');
  });

  it('tells the opening of both schedules together, in the campaign zone; the number zone without one', () => {
    // Tuesday 10:00 Berlin = 04:00 New York: the campaign window is open, the number's hours are not.
    const at = new Date('2026-06-02T08:00:00Z');
    const berlin = weekdays9to17('Europe/Berlin');
    const newYork = weekdays9to17('America/New_York');
    // New York opens at 09:00 EDT = 15:00 Berlin, inside Berlin's window.
    expect(outsideWindowReason(berlin, newYork, at)).toBe(
      'outside calling window: opens Tue 15:00 Europe/Berlin',
    );
    expect(outsideWindowReason(null, newYork, at)).toBe(
      'outside calling window: opens Tue 09:00 America/New_York',
    );
    expect(outsideWindowReason(null, null, at)).toBeNull();
  });

  it('says so when the schedules never overlap', () => {
    const mornings: WeekSchedule = { tz: 'UTC', monday: [{ start: '06:00', end: '07:00' }] };
    const evenings: WeekSchedule = { tz: 'UTC', monday: [{ start: '20:00', end: '21:00' }] };
    expect(outsideWindowReason(mornings, evenings, new Date('2026-06-01T00:00:00Z'))).toBe(
      'calling window and operating hours never overlap',
    );
  });
});

describe('localWords / utcWords', () => {
  it('formats an instant as a weekday and wall time in a zone, and as UTC', () => {
    const at = new Date('2026-11-01T06:30:00Z'); // the night US/Eastern falls back
    expect(localWords(at, 'US/Eastern')).toBe('Sun 01:30 US/Eastern');
    expect(localWords(new Date('2026-11-01T05:30:00Z'), 'US/Eastern')).toBe('Sun 01:30 US/Eastern');
    expect(localWords(at, 'Asia/Kolkata')).toBe('Sun 12:00 Asia/Kolkata');
    expect(utcWords(new Date('2026-11-23T14:05:59.999Z'))).toBe('2026-11-23 14:05 UTC');
  });
});

describe('waitingReason', () => {
  const now = new Date('2026-11-23T15:00:00Z'); // a Monday, 10:00 in New York
  const campaign = aCampaign({ maxAttempts: 3, maxConcurrentCalls: 10, callingWindow: null });
  const context = (over: Partial<Parameters<typeof waitingReason>[1]> = {}) => ({
    campaign,
    inFlight: 0,
    now,
    ...over,
  });

  it('is null for final targets and targets in a call', () => {
    for (const status of [
      'Finished',
      'Failed',
      'To review',
      'In Progress',
      'Post-processing',
    ] as const) {
      expect(waitingReason(aTarget({ status }), context())).toBeNull();
    }
  });

  it('names each wait in words', () => {
    expect(waitingReason(aTarget({ status: 'Pending' }), context())).toBe(
      'not launched: trigger calls or add with launch=true',
    );
    expect(waitingReason(aTarget({ status: 'Waiting', currentStep: 'labs' }), context())).toBe(
      'waiting for step labs',
    );
    const due = aTarget({ status: 'Scheduled', scheduledTime: now });
    expect(waitingReason(due, context({ campaign: { ...campaign, state: 'paused' } }))).toBe(
      'campaign paused',
    );
    expect(waitingReason(due, context({ campaign: { ...campaign, state: 'cancelled' } }))).toBe(
      'campaign cancelled',
    );
    expect(waitingReason(due, context({ inFlight: 10 }))).toBe(
      'campaign at max_concurrent_calls 10/10',
    );
    expect(waitingReason(due, context({ inFlight: 9 }))).toBe(
      'due: the next dispatcher round calls it',
    );
    expect(
      waitingReason(
        due,
        context({
          campaign: { ...campaign, callingWindow: weekdays9to17('Europe/Berlin') },
          now: new Date('2026-11-23T17:00:00Z'), // 18:00 in Berlin: closed for the day
        }),
      ),
    ).toBe('outside calling window: opens Tue 09:00 Europe/Berlin');
  });

  it('tells a retry with its number, the last outcome and when', () => {
    const retry = aTarget({
      status: 'Scheduled',
      attempts: 1,
      outcome: 'No answer',
      categorization: { outcome: 'NO_RESPONSE' },
      scheduledTime: new Date('2026-11-23T16:05:00Z'),
    });
    expect(waitingReason(retry, context())).toBe(
      'retry 2 of 3 after NO_RESPONSE at 2026-11-23 16:05 UTC',
    );
  });
});
