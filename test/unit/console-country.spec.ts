import { getCountries } from 'libphonenumber-js/max';
import { COUNTRY_CODES, countryChoices, countryName } from '../../console/src/countries.js';

describe('the countries the console offers for national numbers', () => {
  it('are exactly those the service reads numbers in (libphonenumber’s numbering plans)', () => {
    expect([...COUNTRY_CODES].sort()).toEqual([...getCountries()].sort());
  });

  it('come the United States and Canada first, then by name', () => {
    const choices = countryChoices();
    expect(choices.slice(0, 2)).toEqual([
      { code: 'US', name: 'United States' },
      { code: 'CA', name: 'Canada' },
    ]);
    const rest = choices.slice(2).map((c) => c.name);
    expect(rest).toEqual([...rest].sort((a, b) => a.localeCompare(b, 'en')));
    expect(choices).toHaveLength(COUNTRY_CODES.length);
    expect(countryName('MX')).toBe('Mexico');
  });
});
