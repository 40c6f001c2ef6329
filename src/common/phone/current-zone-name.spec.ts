import { timeZoneError } from '../schedule/week-schedule.js';
import { backwardZoneNames, currentZoneName } from './current-zone-name.js';
import { locateNumber, numberZoneNames } from './recipient-zones.js';

describe('current IANA zone names', () => {
  it('no zone a number can be given is a backward-compatibility name, and each is a zone Node knows', () => {
    const names = numberZoneNames();
    // libphonenumber's data names a few hundred zones, some of them by backward names.
    expect(names.length).toBeGreaterThan(250);
    const backward = backwardZoneNames();
    expect(names.filter((name) => backward.has(name))).toEqual([]);
    expect(names.filter((name) => timeZoneError(name) !== null)).toEqual([]);
  });

  it('maps the tz backward names to their current ones, and leaves a place’s own name as it is', () => {
    expect(
      ['Asia/Calcutta', 'Asia/Rangoon', 'America/Godthab', 'Europe/Kiev', 'US/Eastern'].map(
        currentZoneName,
      ),
    ).toEqual(['Asia/Kolkata', 'Asia/Yangon', 'America/Nuuk', 'Europe/Kyiv', 'America/New_York']);
    // Linked to Europe/Berlin by tz for their shared clocks, but still the name of a place.
    expect(
      ['Europe/Oslo', 'Africa/Accra', 'Asia/Kolkata', 'Not/AZone'].map(currentZoneName),
    ).toEqual(['Europe/Oslo', 'Africa/Accra', 'Asia/Kolkata', 'Not/AZone']);
  });

  it('an Indian number is in Asia/Kolkata', () => {
    expect(locateNumber('+919876543210')).toEqual({ zones: ['Asia/Kolkata'], region: null });
  });
});
