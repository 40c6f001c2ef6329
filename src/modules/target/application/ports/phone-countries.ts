import { CountryCode, DEFAULT_COUNTRY } from '../../../../common/phone/phone-number.js';

/**
 * The country an organization's numbers written without `+` are read in (its calling policy's
 * `default_country`). A campaign's own `default_country` comes first (see `countryOf`).
 */
export abstract class PhoneCountries {
  abstract organizationCountry(organizationId: string): Promise<CountryCode>;
}

/** Every organization reads national numbers in one country: unit tests and callers without a policy. */
export class FixedPhoneCountry extends PhoneCountries {
  constructor(private readonly country: CountryCode = DEFAULT_COUNTRY) {
    super();
  }

  organizationCountry(): Promise<CountryCode> {
    return Promise.resolve(this.country);
  }
}

/** The country a campaign's national numbers are read in: its own, else its organization's. */
export async function countryOf(
  countries: PhoneCountries,
  campaign: { organizationId: string; defaultCountry: string | null },
): Promise<CountryCode> {
  return campaign.defaultCountry ?? countries.organizationCountry(campaign.organizationId);
}
