/**
 * Finding a campaign's targets the way a coordinator asks: by the patient's name, the MRN (the
 * external id) or the phone number, from one search box.
 */
import type { PatientInput } from './target.js';

export interface TargetSearch {
  /**
   * The name's words, lowercased. One word matches the start of the first or the last name; more
   * match the start of the first name and of the last name, in either order (`maria lop`, `lopez maria`).
   */
  words: string[];
  /** The text as given: an external id, exactly. */
  externalId: string;
  /** The text read as a phone number (E.164), when it reads as one. */
  phoneNumber: string | null;
}

/** The search for `text` (commas and extra spaces are not words); `phoneNumber`: as read, if it is one. */
export function targetSearch(text: string, phoneNumber: string | null): TargetSearch {
  const trimmed = text.trim();
  const words = trimmed
    .toLowerCase()
    .split(/[\s,]+/)
    .filter((w) => w !== '');
  return { words, externalId: trimmed, phoneNumber };
}

/** The two halves of a name search: first words and the rest (`['maria', 'de la cruz']`). */
export function nameHalves(words: readonly string[]): [string, string] | null {
  if (words.length < 2) return null;
  return [words[0], words.slice(1).join(' ')];
}

/** Whether a target matches the search (the SQL adapter's WHERE, for fakes and tests). */
export function matchesSearch(
  target: { externalId: string | null; phoneNumber: string | null; patient: PatientInput | null },
  search: TargetSearch,
): boolean {
  if (target.externalId === search.externalId) return true;
  if (search.phoneNumber !== null && target.phoneNumber === search.phoneNumber) return true;
  const first = target.patient?.first_name?.toLowerCase() ?? null;
  const last = target.patient?.last_name?.toLowerCase() ?? null;
  const starts = (name: string | null, prefix: string) => name !== null && name.startsWith(prefix);
  const halves = nameHalves(search.words);
  if (halves === null) {
    const [word] = search.words;
    return word !== undefined && (starts(first, word) || starts(last, word));
  }
  const [a, b] = halves;
  return (starts(first, a) && starts(last, b)) || (starts(last, a) && starts(first, b));
}
