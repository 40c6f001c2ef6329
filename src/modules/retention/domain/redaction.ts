/**
 * Redaction before storage (docs/compliance.md, "Redaction"): a target's own known values wherever
 * they appear, and the usual patterns of personal data. Pure functions; the default `Redactor`
 * adapter is these, a team's own may add more.
 */

/** Input data strings at least this long are the target's known values (shorter ones are words). */
export const MIN_KNOWN_VALUE_LENGTH = 4;

export const KNOWN_VALUE_MARK = '[REDACTED]';

/** What a target knows of its person, as redaction reads it. */
export interface KnownSource {
  externalId: string | null;
  phoneNumbers: (string | null)[];
  patient: Record<string, unknown> | null;
  inputData: Record<string, unknown> | null;
}

const ISO_DATE = /^(\d{4})-(\d{2})-(\d{2})$/;

/** A date of birth as a person says or writes it: the ISO form, US numeric forms, month words. */
export function dateForms(value: string): string[] {
  const m = ISO_DATE.exec(value.trim());
  if (!m) return [value];
  const [, y, mm, dd] = m;
  const month = Number(mm);
  const day = Number(dd);
  const name = MONTHS[month - 1];
  const forms = [value, `${mm}/${dd}/${y}`, `${month}/${day}/${y}`, `${mm}-${dd}-${y}`];
  if (name) forms.push(`${name} ${day}, ${y}`, `${name} ${day} ${y}`, `${day} ${name} ${y}`);
  return forms;
}

/** A phone number as it is spoken or written: E.164, national digits, the usual US groupings. */
export function phoneForms(value: string): string[] {
  const digits = value.replace(/\D/g, '');
  const national = digits.length === 11 && digits.startsWith('1') ? digits.slice(1) : digits;
  const forms = [value, digits, national];
  if (national.length === 10) {
    const [a, b, c] = [national.slice(0, 3), national.slice(3, 6), national.slice(6)];
    forms.push(`(${a}) ${b}-${c}`, `${a}-${b}-${c}`, `${a}.${b}.${c}`, `${a} ${b} ${c}`);
  }
  return forms.filter((f) => f.length >= 7);
}

function stringsIn(value: unknown, out: string[]): void {
  if (typeof value === 'string') {
    if (value.trim().length >= MIN_KNOWN_VALUE_LENGTH) out.push(value.trim());
  } else if (Array.isArray(value)) {
    for (const v of value) stringsIn(v, out);
  } else if (value !== null && typeof value === 'object') {
    for (const v of Object.values(value)) stringsIn(v, out);
  }
}

/** Every value of the target that names its person, longest first (a longer match wins). */
export function knownValuesOf(source: KnownSource): string[] {
  const values: string[] = [];
  const patient = source.patient ?? {};
  for (const key of ['first_name', 'last_name'] as const) {
    const name = patient[key];
    // Names are the person's whatever their length ("Al"): matched as whole words only.
    if (typeof name === 'string' && name.trim().length >= 2) values.push(name.trim());
  }
  const dob = patient.date_of_birth;
  if (typeof dob === 'string') values.push(...dateForms(dob));
  if (source.externalId) values.push(source.externalId);
  if (typeof patient.external_id === 'string') values.push(patient.external_id);
  for (const n of [...source.phoneNumbers, patient.phone_number]) {
    if (typeof n === 'string' && n) values.push(...phoneForms(n));
  }
  stringsIn(source.inputData ?? {}, values);
  return [...new Set(values)].sort((a, b) => b.length - a.length);
}

const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** Replaces each known value where it stands as a whole word or number (case-insensitive). */
export function redactKnownValues(text: string, known: readonly string[]): string {
  if (known.length === 0 || text === '') return text;
  // Not inside a longer word or number: "Ann" is redacted in "Ann called", not in "Annual".
  const pattern = new RegExp(
    `(?<![\\p{L}\\p{N}])(?:${known.map(escape).join('|')})(?![\\p{L}\\p{N}])`,
    'giu',
  );
  return text.replace(pattern, KNOWN_VALUE_MARK);
}

const MONTHS = [
  'January',
  'February',
  'March',
  'April',
  'May',
  'June',
  'July',
  'August',
  'September',
  'October',
  'November',
  'December',
];
const MONTH_WORD = `(?:${MONTHS.join('|')}|Jan|Feb|Mar|Apr|Jun|Jul|Aug|Sept?|Oct|Nov|Dec)\\.?`;

function luhn(digits: string): boolean {
  let sum = 0;
  for (let i = 0; i < digits.length; i++) {
    let d = Number(digits[digits.length - 1 - i]);
    if (i % 2 === 1) {
      d *= 2;
      if (d > 9) d -= 9;
    }
    sum += d;
  }
  return sum % 10 === 0;
}

/** The patterns, in the order they apply: longer number shapes first, so a card is not a phone. */
export const PATTERNS: readonly {
  name: string;
  mark: string;
  regex: RegExp;
  accept?: (m: string) => boolean;
}[] = [
  {
    name: 'email',
    mark: '[EMAIL]',
    regex: /(?<![\w.+-])[\w.+-]+@[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)*\.[A-Za-z]{2,}(?![\w-])/g,
  },
  {
    name: 'card_number',
    mark: '[CARD]',
    // 13 to 19 digits, in groups or not; only numbers that pass the Luhn check are cards.
    regex: /(?<![\d-])\d(?:[ -]?\d){12,18}(?![\d-])/g,
    accept: (m) => luhn(m.replace(/\D/g, '')),
  },
  {
    name: 'ssn',
    mark: '[SSN]',
    regex: /(?<![\d-])\d{3}([- ])\d{2}\1\d{4}(?![\d-])/g,
  },
  {
    name: 'phone_number',
    mark: '[PHONE]',
    regex: /(?<![\w+])(?:\+?1[ .-]?)?(?:\(\d{3}\)\s?|\d{3}[ .-]?)\d{3}[ .-]?\d{4}(?!\d)/g,
  },
  {
    name: 'date',
    mark: '[DATE]',
    regex: new RegExp(
      [
        // 03/14/1961, 3-14-61
        `(?<![\\d/])\\d{1,2}[/-]\\d{1,2}[/-](?:\\d{4}|\\d{2})(?![\\d/])`,
        // 1961-03-14 (not the date of an ISO instant: "2026-01-01T10:00")
        `(?<!\\d)\\d{4}-\\d{2}-\\d{2}(?![\\dT])`,
        // March 14, 1961 / March 14th 1961
        `\\b${MONTH_WORD} \\d{1,2}(?:st|nd|rd|th)?,? \\d{4}\\b`,
        // 14 March 1961
        `\\b\\d{1,2}(?:st|nd|rd|th)? (?:of )?${MONTH_WORD},? \\d{4}\\b`,
      ].join('|'),
      'gi',
    ),
  },
];

/** Replaces every pattern match (emails, card numbers, SSNs, phone numbers, full dates). */
export function redactPatterns(text: string): string {
  let out = text;
  for (const p of PATTERNS) {
    out = out.replace(p.regex, (m) => (p.accept && !p.accept(m) ? m : p.mark));
  }
  return out;
}

/** Keys whose values are the record's own structure (who spoke, when), never redacted. */
const STRUCTURAL_KEYS = new Set(['role', 'speaker', 'time', 'timestamp', 'start', 'end', 'at']);

/** Applies `redact` to every string of a JSON value, keys and structural fields kept. */
export function redactDeep<T>(value: T, redact: (text: string) => string): T {
  const walk = (v: unknown, key: string | null): unknown => {
    if (typeof v === 'string') return key !== null && STRUCTURAL_KEYS.has(key) ? v : redact(v);
    if (Array.isArray(v)) return v.map((x) => walk(x, null));
    if (v !== null && typeof v === 'object') {
      return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, walk(x, k)]));
    }
    return v;
  };
  return walk(value, null) as T;
}
