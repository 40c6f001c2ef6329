import { WeekSchedule } from '../../../common/schedule/week-schedule.js';
import { instantOf, nextCommonOpening, nextOpening } from './calling-window.js';

const weekdays9to17 = (tz: string): WeekSchedule => ({
  tz,
  monday: [{ start: '09:00', end: '17:00' }],
  tuesday: [{ start: '09:00', end: '17:00' }],
  wednesday: [{ start: '09:00', end: '17:00' }],
  thursday: [{ start: '09:00', end: '17:00' }],
  friday: [{ start: '09:00', end: '17:00' }],
});

describe('nextOpening', () => {
  it('is always open without a schedule', () => {
    const at = new Date('2026-01-05T03:00:00Z');
    expect(nextOpening(null, at)).toEqual(at);
  });

  it('returns the instant itself inside an interval (New York, winter: UTC-5)', () => {
    // Monday 2026-01-05 10:00 EST = 15:00Z
    const at = new Date('2026-01-05T15:00:00Z');
    expect(nextOpening(weekdays9to17('America/New_York'), at)).toEqual(at);
  });

  it('treats the end as exclusive and moves to the next day', () => {
    // Monday 17:00 EST = 22:00Z -> Tuesday 09:00 EST = 14:00Z
    expect(
      nextOpening(weekdays9to17('America/New_York'), new Date('2026-01-05T22:00:00Z')),
    ).toEqual(new Date('2026-01-06T14:00:00Z'));
  });

  it('skips the weekend', () => {
    // Friday 2026-01-09 18:00 EST -> Monday 2026-01-12 09:00 EST
    expect(
      nextOpening(weekdays9to17('America/New_York'), new Date('2026-01-09T23:00:00Z')),
    ).toEqual(new Date('2026-01-12T14:00:00Z'));
  });

  it('reads the local day in the schedule time zone, not UTC', () => {
    // Tuesday 2026-01-06 03:00Z is still Monday 19:00 in Los Angeles; Tuesday 09:00 PST = 17:00Z
    expect(
      nextOpening(weekdays9to17('America/Los_Angeles'), new Date('2026-01-06T03:00:00Z')),
    ).toEqual(new Date('2026-01-06T17:00:00Z'));
    // ...and already Tuesday 12:00 in Tokyo (open)
    const at = new Date('2026-01-06T03:00:00Z');
    expect(nextOpening(weekdays9to17('Asia/Tokyo'), at)).toEqual(at);
  });

  it('follows a DST change: the opening keeps its local time across spring forward', () => {
    // US DST starts Sunday 2026-03-08. Friday 2026-03-06 18:00 EST (23:00Z) -> Monday 09:00 EDT = 13:00Z
    expect(
      nextOpening(weekdays9to17('America/New_York'), new Date('2026-03-06T23:00:00Z')),
    ).toEqual(new Date('2026-03-09T13:00:00Z'));
  });

  it('follows a DST change: fall back moves the opening an hour later in UTC', () => {
    // US DST ends Sunday 2026-11-01. Friday 2026-10-30 18:00 EDT (22:00Z) -> Monday 09:00 EST = 14:00Z
    expect(
      nextOpening(weekdays9to17('America/New_York'), new Date('2026-10-30T22:00:00Z')),
    ).toEqual(new Date('2026-11-02T14:00:00Z'));
  });

  it('resolves a local time skipped by spring forward to the same wall time before the jump', () => {
    // 02:30 does not exist in New York on 2026-03-08: it is 02:30 EST = 07:30Z (03:30 EDT)
    expect(instantOf('America/New_York', 2026, 3, 8, 150)).toEqual(
      new Date('2026-03-08T07:30:00Z'),
    );
    // 01:30 happens twice on 2026-11-01: the first (EDT) is taken
    expect(instantOf('America/New_York', 2026, 11, 1, 90)).toEqual(
      new Date('2026-11-01T05:30:00Z'),
    );
  });

  it('opens at midnight for an interval ending at 24:00 the day before', () => {
    const schedule: WeekSchedule = { tz: 'UTC', monday: [{ start: '20:00', end: '24:00' }] };
    const at = new Date('2026-01-05T23:59:00Z');
    expect(nextOpening(schedule, at)).toEqual(at);
    expect(nextOpening(schedule, new Date('2026-01-06T00:00:00Z'))).toEqual(
      new Date('2026-01-12T20:00:00Z'),
    );
  });

  it('is null for a schedule with no intervals', () => {
    expect(nextOpening({ tz: 'UTC' }, new Date('2026-01-05T10:00:00Z'))).toBeNull();
  });
});

describe('nextCommonOpening', () => {
  it('waits for both the calling window and the operating hours, each in its zone', () => {
    const window = weekdays9to17('America/New_York'); // 14:00Z-22:00Z in winter
    const hours: WeekSchedule = {
      tz: 'Europe/London',
      monday: [{ start: '16:00', end: '20:00' }],
      tuesday: [{ start: '16:00', end: '20:00' }],
    }; // 16:00Z-20:00Z
    // Monday 15:00Z: window open, hours closed until 16:00Z
    expect(nextCommonOpening([window, hours], new Date('2026-01-05T15:00:00Z'))).toEqual(
      new Date('2026-01-05T16:00:00Z'),
    );
    // Monday 21:00Z: hours closed -> Tuesday 16:00Z (window open then)
    expect(nextCommonOpening([window, hours], new Date('2026-01-05T21:00:00Z'))).toEqual(
      new Date('2026-01-06T16:00:00Z'),
    );
  });

  it('is null when the schedules never overlap', () => {
    const a: WeekSchedule = { tz: 'UTC', monday: [{ start: '09:00', end: '10:00' }] };
    const b: WeekSchedule = { tz: 'UTC', monday: [{ start: '11:00', end: '12:00' }] };
    expect(nextCommonOpening([a, b], new Date('2026-01-05T08:00:00Z'))).toBeNull();
  });
});
