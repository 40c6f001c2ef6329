/**
 * The columns of the files people have: an EHR's export names its columns `Phone`, `MRN`, `First Name`,
 * `DOB`... Each header is recognised whatever its case, spacing or punctuation, and the mapping the
 * import proposes (and uses, unless told otherwise) is reported column by column.
 */

/** Where a column's field came from: the `columns` parameter, the header naming a field, recognition. */
export type ColumnSource = 'explicit' | 'field_name' | 'recognised' | 'input_data';

export interface ImportColumn {
  column: string;
  /** The field path it feeds: `phone_number`, `patient.first_name`, `input_data.Visit Reason`. */
  field: string;
  source: ColumnSource;
}

/** Headers as EHR exports write them, compacted (lowercase letters and digits only), per field. */
const RECOGNISED: readonly (readonly [string, readonly string[]])[] = [
  [
    'phone',
    [
      'phone',
      'phonenumber',
      'phoneno',
      'mobile',
      'mobilephone',
      'mobilenumber',
      'cell',
      'cellphone',
      'cellnumber',
      'homephone',
      'workphone',
      'primaryphone',
      'patientphone',
      'telephone',
      'tel',
      'contactnumber',
      'contactphone',
    ],
  ],
  ['patient.first_name', ['firstname', 'first', 'givenname', 'fname', 'patientfirstname']],
  ['patient.last_name', ['lastname', 'last', 'surname', 'familyname', 'lname', 'patientlastname']],
  ['patient.date_of_birth', ['dob', 'dateofbirth', 'birthdate', 'birthday', 'patientdob']],
  [
    'patient.external_id',
    ['mrn', 'patientid', 'medicalrecordnumber', 'patientmrn', 'chartnumber', 'mrnumber'],
  ],
  ['time_zone', ['timezone', 'tz']],
];

/** A phone column feeds the number to call, then the fallback number. */
const PHONE_FIELDS = ['phone_number', 'fallback_phone_number'];

const compact = (header: string) => header.toLowerCase().replace(/[^a-z0-9]/g, '');

/** The field a header is recognised as (`phone` for any phone column), or null. */
export function recognisedField(header: string): string | null {
  const key = compact(header);
  return RECOGNISED.find(([, names]) => names.includes(key))?.[0] ?? null;
}

/**
 * The mapping of every column, in file order: an explicit mapping first, then a header that names a
 * field (`fieldOf` answers it, or null), then recognition (each field fed once: a second phone column
 * is the fallback number, a third and a second `DOB` stay input data), else input data under its name.
 */
export function proposeColumns(
  header: readonly string[],
  explicit: ReadonlyMap<string, string>,
  fieldOf: (name: string) => string | null,
): ImportColumn[] {
  const columns: (ImportColumn | null)[] = header.map((column) => {
    const mapped = explicit.get(column);
    if (mapped !== undefined) return { column, field: mapped, source: 'explicit' };
    const named = fieldOf(column);
    return named === null ? null : { column, field: named, source: 'field_name' };
  });
  const taken = new Set(columns.flatMap((c) => (c ? [c.field] : [])));
  return header.map((column, i) => {
    const known = columns[i];
    if (known) return known;
    const recognised = recognisedField(column);
    const candidates = recognised === 'phone' ? PHONE_FIELDS : recognised ? [recognised] : [];
    const field = candidates.find((f) => !taken.has(f));
    if (field === undefined) return { column, field: `input_data.${column}`, source: 'input_data' };
    taken.add(field);
    return { column, field, source: 'recognised' };
  });
}

const US_DATE = /^(?<month>\d{1,2})\/(?<day>\d{1,2})\/(?<year>\d{4})$/;
const ISO_DATE = /^(?<year>\d{4})-(?<month>\d{2})-(?<day>\d{2})$/;

export const DATE_OF_BIRTH_RULE = 'a date of birth must be a date such as 03/14/1962 or 1962-03-14';

/** A date of birth as US files write it (`03/14/1962`, `3/4/1962`, `1962-03-14`), as `YYYY-MM-DD`. */
export function readDateOfBirth(value: string): string | null {
  const trimmed = value.trim();
  const parts = (US_DATE.exec(trimmed) ?? ISO_DATE.exec(trimmed))?.groups;
  if (parts === undefined) return null;
  const [year, month, day] = [Number(parts.year), Number(parts.month), Number(parts.day)];
  const date = new Date(Date.UTC(year, month - 1, day));
  const real =
    date.getUTCFullYear() === year && date.getUTCMonth() === month - 1 && date.getUTCDate() === day;
  if (!real) return null;
  const pad = (n: number, width = 2) => String(n).padStart(width, '0');
  return `${pad(year, 4)}-${pad(month)}-${pad(day)}`;
}
