/**
 * The state rule pack (rules/us-state-rules.json): data, not code. Each rule names its state, the
 * hours it allows per weekday (read in each of the recipient's zones), its calls-per-24-hours limit,
 * the date it took effect and its citation. A NANP number's state comes from its area code
 * (libphonenumber's geocoding data: `Florida`, or `Miami, FL` for a finer prefix).
 */
import type { StateRule } from '../../telephony/domain/calling-policy.js';
import { weekScheduleError } from '../../../common/schedule/week-schedule.js';
import pack from '../rules/us-state-rules.json' with { type: 'json' };

export type { StateRule } from '../../telephony/domain/calling-policy.js';
export { hoursWords } from '../../telephony/domain/calling-policy.js';

export interface StateRulePack {
  version: string;
  scope: string;
  rules: StateRule[];
}

interface RawRule {
  id: string;
  state: string;
  name: string;
  effective: string;
  hours?: Record<string, unknown> | null;
  max_calls_per_24h?: number | null;
  citation: { text: string; url: string };
}

/** Reads a pack, failing on the first malformed rule (a broken pack must not load quietly). */
export function readStatePack(raw: {
  version: string;
  scope: string;
  rules: RawRule[];
}): StateRulePack {
  const rules = raw.rules.map((r, i): StateRule => {
    const where = `state rule ${i} (${String(r.id)})`;
    if (!/^[A-Z]{2}$/.test(r.state)) throw new Error(`${where}: state must be a USPS code`);
    if (!/^\d{4}-\d{2}-\d{2}$/.test(r.effective)) throw new Error(`${where}: effective date`);
    if (!r.citation?.text || !/^https?:\/\//.test(r.citation.url ?? '')) {
      throw new Error(`${where}: a citation needs text and a URL`);
    }
    if (r.hours) {
      const error = weekScheduleError({ ...r.hours });
      if (error) throw new Error(`${where}: ${error}`);
    }
    const limit = r.max_calls_per_24h ?? null;
    if (limit !== null && (!Number.isInteger(limit) || limit < 1)) {
      throw new Error(`${where}: max_calls_per_24h must be a positive integer`);
    }
    if (!r.hours && limit === null) throw new Error(`${where}: restricts nothing`);
    return {
      id: r.id,
      state: r.state,
      name: r.name,
      effective: r.effective,
      hours: (r.hours as StateRule['hours']) ?? null,
      maxCallsPer24h: limit,
      citation: { text: r.citation.text, url: r.citation.url },
    };
  });
  return { version: raw.version, scope: raw.scope, rules };
}

export const STATE_RULE_PACK: StateRulePack = readStatePack(
  pack as Parameters<typeof readStatePack>[0],
);

/** The region's state when the pack has rules for it: `Florida` and `Miami, FL` are both FL. */
function inState(region: string, rule: StateRule): boolean {
  return region === rule.name || region.endsWith(`, ${rule.state}`);
}

/** The rules in force at `at` for a number in `region` (null: not a NANP area we know). */
export function stateRulesFor(
  region: string | null,
  at: Date,
  rulePack: StateRulePack = STATE_RULE_PACK,
): StateRule[] {
  if (region === null) return [];
  const day = at.toISOString().slice(0, 10);
  return rulePack.rules.filter((rule) => rule.effective <= day && inState(region, rule));
}
