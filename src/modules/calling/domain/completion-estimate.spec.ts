import type { WeekSchedule } from '../../../common/schedule/week-schedule.js';
import { estimateCompletion, expectedCallsPerMinute } from './completion-estimate.js';

const NOW = new Date('2026-01-05T15:00:00.000Z'); // a Monday, 10:00 in New York

describe('estimateCompletion', () => {
  it('without a calling window: remaining calls at the rate, from now', () => {
    expect(estimateCompletion(null, NOW, 30, 2)).toEqual(new Date('2026-01-05T15:15:00.000Z'));
  });

  it('counts only the time the window is open', () => {
    // Open 09:00-11:00 New York on weekdays: one hour left today, the second hour tomorrow morning.
    const window: WeekSchedule = {
      monday: [{ start: '09:00', end: '11:00' }],
      tuesday: [{ start: '09:00', end: '11:00' }],
      tz: 'America/New_York',
    };
    expect(estimateCompletion(window, NOW, 120, 1)).toEqual(new Date('2026-01-06T15:00:00.000Z'));
  });

  it('is unknown with nothing left, no rate, or a window that never opens', () => {
    expect(estimateCompletion(null, NOW, 0, 5)).toBeNull();
    expect(estimateCompletion(null, NOW, 10, null)).toBeNull();
    expect(estimateCompletion({ tz: 'UTC' } as never, NOW, 10, 1)).toBeNull();
  });
});

describe('expectedCallsPerMinute', () => {
  it('is the recent rate, else what the concurrency makes of the average call', () => {
    expect(expectedCallsPerMinute(3, 10, 60)).toBe(3);
    expect(expectedCallsPerMinute(0, 10, 120)).toBe(5);
    expect(expectedCallsPerMinute(0, 10, null)).toBeNull();
  });
});
