import type { WeekSchedule } from '../../../common/schedule/week-schedule.js';
import {
  estimateCompletion,
  expectedCallsPerMinute,
  honestCompletion,
} from './completion-estimate.js';

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

describe('honestCompletion', () => {
  const at = (iso: string) => new Date(iso);

  it('never ends before targets held by quiet hours may be called: 3 held to 20:00Z end after it', () => {
    // The rate alone: 10 calls at 1.5 a minute from 18:56 end 19:02:40; 3 of them wait for 20:00.
    const now = at('2026-01-05T18:56:00.000Z');
    expect(estimateCompletion(null, now, 10, 1.5)).toEqual(at('2026-01-05T19:02:40.000Z'));
    expect(
      honestCompletion(null, now, 10, 1.5, [
        { at: at('2026-01-05T20:00:00.000Z'), targets: 3, rule: 'quiet_hours' },
      ]),
    ).toEqual({
      at: at('2026-01-05T20:02:00.000Z'),
      heldUntil: at('2026-01-05T20:00:00.000Z'),
      heldByRule: { quiet_hours: 3 },
    });
  });

  it('serves calls in the order they may start: each hold adds the calls that wait for it or later', () => {
    const now = at('2026-01-05T15:00:00.000Z');
    const holds = [
      { at: at('2026-01-05T15:30:00.000Z'), targets: 20, rule: 'quiet_hours' },
      { at: at('2026-01-05T15:40:00.000Z'), targets: 10, rule: 'state_hours' },
      { at: at('2026-01-05T15:05:00.000Z'), targets: 5, rule: 'organization_limit' },
    ];
    // The rate alone: 15:40. But 30 calls from 15:30 at one a minute end at 16:00 (10 from 15:40: 15:50).
    expect(honestCompletion(null, now, 40, 1, holds)).toEqual({
      at: at('2026-01-05T16:00:00.000Z'),
      heldUntil: at('2026-01-05T15:40:00.000Z'),
      heldByRule: { organization_limit: 5, quiet_hours: 20, state_hours: 10 },
    });
  });

  it('is, for each start time, that time plus the calls that may start only then or later: the latest', () => {
    const now = at('2026-01-05T15:00:00.000Z');
    // 60 start times, 7 minutes apart, 1 to 5 calls each, and 30 calls free to start now.
    const holds = Array.from({ length: 60 }, (_, i) => ({
      at: new Date(now.getTime() + (i + 1) * 7 * 60_000),
      targets: 1 + (i % 5),
      rule: 'organization_limit',
    }));
    const remaining = 30 + holds.reduce((n, h) => n + h.targets, 0);
    const ends = [
      estimateCompletion(null, now, remaining, 0.7)!,
      ...holds.map((h, i) =>
        estimateCompletion(
          null,
          h.at,
          holds.slice(i).reduce((n, x) => n + x.targets, 0),
          0.7,
        )!,
      ),
    ];
    const latest = new Date(Math.max(...ends.map((d) => d.getTime())));
    expect(honestCompletion(null, now, remaining, 0.7, holds).at).toEqual(latest);
  });

  it('a retry scheduled later (no rule) bounds the end without being reported as a hold', () => {
    const now = at('2026-01-05T15:00:00.000Z');
    expect(
      honestCompletion(null, now, 2, 1, [
        { at: at('2026-01-05T16:00:00.000Z'), targets: 1, rule: null },
      ]),
    ).toEqual({ at: at('2026-01-05T16:01:00.000Z'), heldUntil: null, heldByRule: {} });
  });

  it('holds ending before the rate-only end change nothing and are not reported', () => {
    const now = at('2026-01-05T15:00:00.000Z');
    expect(
      honestCompletion(null, now, 60, 1, [
        { at: at('2026-01-05T15:10:00.000Z'), targets: 2, rule: 'quiet_hours' },
      ]),
    ).toEqual({ at: at('2026-01-05T16:00:00.000Z'), heldUntil: null, heldByRule: {} });
  });

  it('counts a hold in the calling window: held to a time it is closed, the calls wait for it to open', () => {
    const window: WeekSchedule = {
      monday: [{ start: '09:00', end: '17:00' }],
      tuesday: [{ start: '09:00', end: '17:00' }],
      tz: 'America/New_York',
    };
    const now = at('2026-01-05T15:00:00.000Z');
    expect(
      honestCompletion(window, now, 4, 1, [
        { at: at('2026-01-05T23:00:00.000Z'), targets: 2, rule: 'quiet_hours' },
      ]),
    ).toEqual({
      at: at('2026-01-06T14:02:00.000Z'),
      heldUntil: at('2026-01-05T23:00:00.000Z'),
      heldByRule: { quiet_hours: 2 },
    });
  });

  it('with no rate known, the end is unknown and every hold is said', () => {
    const hold = { at: at('2026-01-05T20:00:00.000Z'), targets: 3, rule: 'quiet_hours' };
    expect(honestCompletion(null, NOW, 3, null, [hold])).toEqual({
      at: null,
      heldUntil: hold.at,
      heldByRule: { quiet_hours: 3 },
    });
  });
});

describe('expectedCallsPerMinute', () => {
  it('is the recent rate, else what the concurrency makes of the average call', () => {
    expect(expectedCallsPerMinute(3, 10, 60)).toBe(3);
    expect(expectedCallsPerMinute(0, 10, 120)).toBe(5);
    expect(expectedCallsPerMinute(0, 10, null)).toBeNull();
  });
});
