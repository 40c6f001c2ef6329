import { normalizePhoneNumber } from '../phone/phone-number.js';
import { normalizeWeekSchedule, weekScheduleError } from './week-schedule.js';

describe('week schedule validation', () => {
  it('accepts weekday intervals in a known time zone and defaults the zone', () => {
    expect(
      weekScheduleError({ monday: [{ start: '09:00', end: '17:30' }], tz: 'Europe/Paris' }),
    ).toBeNull();
    expect(normalizeWeekSchedule({ friday: [] })).toEqual({ friday: [], tz: 'US/Eastern' });
  });

  it('explains what is wrong', () => {
    expect(weekScheduleError({ funday: [] })).toBe('unknown schedule key "funday"');
    expect(weekScheduleError({ tz: 'Mars/Olympus' })).toBe('unknown time zone "Mars/Olympus"');
    expect(weekScheduleError({ monday: [{ start: '9am', end: '17:00' }] })).toBe(
      'monday intervals need start and end as HH:MM',
    );
    expect(weekScheduleError({ monday: [{ start: '17:00', end: '09:00' }] })).toBe(
      'monday interval 17:00-09:00 must end after it starts',
    );
    expect(weekScheduleError([])).toMatch(/must be an object/);
  });
});

describe('phone numbers', () => {
  it('strips separators and requires + and 7 to 15 digits', () => {
    expect(normalizePhoneNumber('+1 (555) 010-1234')).toBe('+15550101234');
    expect(normalizePhoneNumber('+33.1.23.45.67.89')).toBe('+33123456789');
    expect(normalizePhoneNumber('5550101234')).toBeNull();
    expect(normalizePhoneNumber('+123456')).toBeNull();
    expect(normalizePhoneNumber('+1234567890123456')).toBeNull();
    expect(normalizePhoneNumber('+1555abc1234')).toBeNull();
  });
});
