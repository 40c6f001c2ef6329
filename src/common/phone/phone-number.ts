import {
  type CountryCode as LibCountryCode,
  isSupportedCountry,
  parsePhoneNumberFromString,
  validatePhoneNumberLength,
} from 'libphonenumber-js/max';
import { FieldPath, InvalidInputError } from '../errors/domain-errors.js';

/**
 * DECISIONS: after removing spaces, dashes, dots and parentheses a number must be `+` and 7..15 digits
 * (E.164). Returns the normalised number, or null when it is not one.
 */
export function normalizePhoneNumber(raw: string): string | null {
  const compact = raw.replace(/[\s\-.()]/g, '');
  return /^\+\d{7,15}$/.test(compact) ? compact : null;
}

export const PHONE_NUMBER_RULE =
  'phone number must be + followed by 7 to 15 digits (spaces, dashes, dots and parentheses are ignored)';

/**
 * The E.164 rule for a value that breaks it, said for this value: seven digits without `+` are a local
 * number as people write it (`253-1217`), whose fix is its area code (the rule alone would send them
 * to the country code). The reference's words come first, unchanged.
 */
export function phoneNumberRule(raw: unknown): string {
  return typeof raw === 'string' && /^\d{7}$/.test(raw.replace(/[\s\-.()]/g, ''))
    ? `${PHONE_NUMBER_RULE}: ${raw.trim()} has only 7 digits, add the area code`
    : PHONE_NUMBER_RULE;
}

/** The normalised number, or the service's 422 at `field` (a domain path) when it is not one. */
export function normalizedPhoneNumberAt(raw: string, field: FieldPath): string {
  const normalized = normalizePhoneNumber(raw);
  if (!normalized) throw new InvalidInputError(PHONE_NUMBER_RULE, field, raw);
  return normalized;
}

/** An ISO 3166-1 alpha-2 country code: the country national numbers are read in. */
export type CountryCode = string;
export const DEFAULT_COUNTRY: CountryCode = 'US';

/**
 * Whether a value written without `+` could be a national number: 8 to 15 digits once spaces, dashes,
 * dots and parentheses are removed. Shorter values keep the E.164 rule's refusal (what the reference
 * service answers); these are read in a country by `readPhoneNumber`.
 */
export function mayBeNationalNumber(raw: string): boolean {
  return /^\d{8,15}$/.test(raw.replace(/[\s\-.()]/g, ''));
}

/** A phone number as the request gave it, or the reason it cannot be one. */
export type PhoneReading = { number: string } | { error: string };

const LENGTH_WORDS: Record<string, string> = {
  TOO_SHORT: 'too short',
  TOO_LONG: 'too long',
  INVALID_LENGTH: 'not a possible length',
  NOT_A_NUMBER: 'not a phone number',
  INVALID_COUNTRY: 'not a number of any country',
};

/**
 * A number in E.164: `+` and 7..15 digits as given (the reference's rule), or a national number read
 * in `country` and kept when libphonenumber-js finds it valid there (`(617) 253-1217` in `US` is
 * `+16172531217`). The error says why not, in libphonenumber's terms.
 */
export function readPhoneNumber(raw: string, country: CountryCode): PhoneReading {
  const international = normalizePhoneNumber(raw);
  if (international) return { number: international };
  if (!mayBeNationalNumber(raw)) return { error: phoneNumberRule(raw) };
  const tooFew = validatePhoneNumberLength(raw, country as LibCountryCode);
  if (tooFew)
    return { error: `${raw} is ${LENGTH_WORDS[tooFew] ?? tooFew} for a number in ${country}` };
  const parsed = parsePhoneNumberFromString(raw, country as LibCountryCode);
  if (!parsed) return { error: `${raw} is not a phone number in ${country}` };
  if (!parsed.isValid()) {
    const nanp = parsed.countryCallingCode === '1';
    return {
      error: nanp
        ? `${raw} is not a valid number in ${country}: area code ${parsed.nationalNumber.slice(0, 3)} or its exchange is not in use`
        : `${raw} is not a valid number in ${country}`,
    };
  }
  return { number: parsed.number };
}

/** A validator's rule: an ISO 3166-1 alpha-2 code whose numbering plan libphonenumber knows. */
export const countryError = (v: unknown): string | null =>
  typeof v !== 'string' || isSupportedCountry(v)
    ? null
    : 'country must be an ISO 3166-1 alpha-2 code with a numbering plan, such as US or CA';

/** `readPhoneNumber`, or the service's 422 at `field` (a domain path) with the reason. */
export function phoneNumberAt(raw: string, country: CountryCode, field: FieldPath): string {
  const reading = readPhoneNumber(raw, country);
  if ('error' in reading) throw new InvalidInputError(reading.error, field, raw);
  return reading.number;
}
