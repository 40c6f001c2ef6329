/**
 * The country national numbers are read in, chosen from a list (never typed): see countries.ts. With
 * `inherit`, the empty choice means "no country of its own" (a campaign using its organization's); a
 * value not in the list is kept as the first choice, so opening a form never changes a setting.
 */
import { useEffect, useState } from 'preact/hooks';
import type { CampaignCallingClient } from '../../clients/typescript/src/index.js';
import { COUNTRY_CODES, countryChoices } from './countries.js';

/**
 * The organization's country of national numbers (the calling policy's `default_country`), for a
 * campaign's "Use the organization's (US)"; null until read, or when the key may not read the policy.
 */
export function useOrganizationCountry(client: CampaignCallingClient): string | null {
  const [country, setCountry] = useState<string | null>(null);
  useEffect(() => {
    let live = true;
    void client
      .GET('/api/v1/compliance/policy')
      .then(({ data }) => live && setCountry(data?.default_country ?? null))
      .catch(() => undefined);
    return () => {
      live = false;
    };
  }, [client]);
  return country;
}

export function CountrySelect({
  id,
  value,
  onValue,
  inherit,
  describedBy,
  invalid,
}: {
  id: string;
  value: string;
  onValue: (code: string) => void;
  /** The empty choice's words, e.g. "Use the organization's (US)"; none: a country must be chosen. */
  inherit?: string;
  describedBy?: string;
  invalid?: boolean;
}) {
  const known = COUNTRY_CODES.includes(value) || (value === '' && inherit !== undefined);
  return (
    <select
      id={id}
      value={value}
      aria-describedby={describedBy}
      aria-invalid={invalid ? true : undefined}
      onChange={(e) => onValue((e.target as HTMLSelectElement).value)}
    >
      {inherit !== undefined ? <option value="">{inherit}</option> : null}
      {known ? null : <option value={value}>{value || 'Choose a country'}</option>}
      {countryChoices().map(({ code, name }) => (
        <option key={code} value={code}>
          {name} ({code})
        </option>
      ))}
    </select>
  );
}
