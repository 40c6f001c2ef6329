import {
  countryError,
  mayBeNationalNumber,
  PHONE_NUMBER_RULE,
  phoneNumberRule,
  readPhoneNumber,
} from './phone-number.js';

describe('phone numbers as people write them', () => {
  it('keeps the reference rule for numbers with +, and reads national ones in the country', () => {
    expect(readPhoneNumber('+1 (555) 010-0001', 'US')).toEqual({ number: '+15550100001' });
    expect(
      ['(617) 253-1217', '617-253-1217', '6172531217', '1 617 253 1217'].map((n) =>
        readPhoneNumber(n, 'US'),
      ),
    ).toEqual(Array(4).fill({ number: '+16172531217' }));
    expect(readPhoneNumber('020 7946 0958', 'GB')).toEqual({ number: '+442079460958' });
  });

  it('says why a national number cannot be real, as libphonenumber decides', () => {
    expect(readPhoneNumber('617-253-121', 'US')).toEqual({
      error: '617-253-121 is too short for a number in US',
    });
    expect(readPhoneNumber('123-456-7890', 'US')).toEqual({
      error:
        '123-456-7890 is not a valid number in US: area code 123 or its exchange is not in use',
    });
    // Too few digits or letters: the reference's words.
    expect(readPhoneNumber('55-0100', 'US')).toEqual({ error: PHONE_NUMBER_RULE });
    expect(readPhoneNumber('call me', 'US')).toEqual({ error: PHONE_NUMBER_RULE });
    expect(mayBeNationalNumber('call me')).toBe(false);
  });

  it("tells a seven-digit local number to add its area code, after the reference's words", () => {
    for (const local of ['253-1217', '253 1217', '2531217', ' 253.1217 '])
      expect(readPhoneNumber(local, 'US')).toEqual({
        error: `${PHONE_NUMBER_RULE}: ${local.trim()} has only 7 digits, add the area code`,
      });
    expect(phoneNumberRule('+253-1217')).toBe(PHONE_NUMBER_RULE);
    expect(phoneNumberRule('12-34-567')).toBe(
      `${PHONE_NUMBER_RULE}: 12-34-567 has only 7 digits, add the area code`,
    );
    expect(phoneNumberRule(2531217)).toBe(PHONE_NUMBER_RULE);
  });

  it('knows the countries with a numbering plan', () => {
    expect([countryError('US'), countryError('CA')]).toEqual([null, null]);
    expect(countryError('XX')).toMatch(/ISO 3166-1 alpha-2/);
  });
});
