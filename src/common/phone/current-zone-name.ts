/**
 * A time zone's current IANA name. libphonenumber's data still names some zones by names the tz
 * database keeps only for backward compatibility (`Asia/Calcutta`, `Asia/Rangoon`,
 * `America/Godthab`); targets, waiting reasons and decisions say the name in use (`Asia/Kolkata`).
 *
 * Both halves come from the tz database as packaged on npm, never from a table of our own:
 * - `tzdata`: every Zone and Link of the tz database, a Link as `name -> target`;
 * - `@vvo/tzdb`'s `timeZonesNames`: the names listed in the tz database's `zone.tab`, one for each
 *   place a country's clocks differ or differed.
 * A Link whose name is in `zone.tab` is a place's own name that tz merged into a zone with the same
 * clocks (`Europe/Oslo` -> `Europe/Berlin`): it stays, as ECMA-402 keeps it. A Link not in `zone.tab`
 * is one of the tz `backward` file's old names (and `US/Eastern`-style aliases): its target is its
 * current name.
 */
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);

type TzZones = Record<string, string | unknown[]>;

let currentNames: Map<string, string> | null = null;

function load(): Map<string, string> {
  if (!currentNames) {
    const { zones } = require('tzdata') as { zones: TzZones };
    const placeNames = new Set(require('@vvo/tzdb/time-zones-names.json') as string[]);
    currentNames = new Map();
    for (const [name, zone] of Object.entries(zones)) {
      if (typeof zone === 'string' && !placeNames.has(name)) currentNames.set(name, zone);
    }
  }
  return currentNames;
}

/** `Asia/Calcutta` -> `Asia/Kolkata`; a name in use, or one the tz database does not know, as it is. */
export function currentZoneName(name: string): string {
  return load().get(name) ?? name;
}

/** The backward-compatibility names and the current name each stands for (for tests and docs). */
export function backwardZoneNames(): ReadonlyMap<string, string> {
  return load();
}
