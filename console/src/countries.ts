/**
 * The countries a phone number written without + (national form, such as `(617) 253-1217`) may be
 * read in, as the console offers them (country-select.tsx): the United States and Canada first, then
 * every country the service knows a numbering plan for, by its English name.
 */

/**
 * The countries libphonenumber (the service's reader) has a numbering plan for: its `getCountries()`,
 * kept equal to it by test/unit/console-country.spec.ts.
 */
export const COUNTRY_CODES: readonly string[] = (
  'AC AD AE AF AG AI AL AM AO AR AS AT AU AW AX AZ BA BB BD BE BF BG BH BI BJ BL BM BN BO BQ BR BS ' +
  'BT BW BY BZ CA CC CD CF CG CH CI CK CL CM CN CO CR CU CV CW CX CY CZ DE DJ DK DM DO DZ EC EE EG ' +
  'EH ER ES ET FI FJ FK FM FO FR GA GB GD GE GF GG GH GI GL GM GN GP GQ GR GT GU GW GY HK HN HR HT ' +
  'HU ID IE IL IM IN IO IQ IR IS IT JE JM JO JP KE KG KH KI KM KN KP KR KW KY KZ LA LB LC LI LK LR ' +
  'LS LT LU LV LY MA MC MD ME MF MG MH MK ML MM MN MO MP MQ MR MS MT MU MV MW MX MY MZ NA NC NE NF ' +
  'NG NI NL NO NP NR NU NZ OM PA PE PF PG PH PK PL PM PR PS PT PW PY QA RE RO RS RU RW SA SB SC SD ' +
  'SE SG SH SI SJ SK SL SM SN SO SR SS ST SV SX SY SZ TA TC TD TG TH TJ TK TL TM TN TO TR TT TV TW ' +
  'TZ UA UG US UY UZ VA VC VE VG VI VN VU WF WS XK YE YT ZA ZM ZW'
).split(' ');

const FIRST = ['US', 'CA'];

const regionNames = (() => {
  try {
    return new Intl.DisplayNames(['en'], { type: 'region' });
  } catch {
    return null;
  }
})();

/** `US` -> `United States`; the code itself when the browser has no name for it. */
export function countryName(code: string): string {
  try {
    return regionNames?.of(code) ?? code;
  } catch {
    return code;
  }
}

/** The choices in order: the United States and Canada, then every other country by name. */
export function countryChoices(): { code: string; name: string }[] {
  const named = (code: string) => ({ code, name: countryName(code) });
  const rest = COUNTRY_CODES.filter((c) => !FIRST.includes(c))
    .map(named)
    .sort((a, b) => a.name.localeCompare(b.name, 'en'));
  return [...FIRST.map(named), ...rest];
}
