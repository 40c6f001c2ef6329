/**
 * The preview of a CSV file in the console: only its first records, parsed from the beginning of the
 * file (no DOM, no dependency; unit-tested in test/unit/console-csv-head.spec.ts).
 */
/**
 * The first `max` records of CSV text (RFC 4180: quoted fields may hold commas, doubled quotes and line
 * breaks); a record cut by the end of the text is dropped unless it is the last of the whole file.
 */
export function parseCsvHead(text: string, max: number, complete: boolean): string[][] {
  const records: string[][] = [];
  let record: string[] = [];
  let field = '';
  let quoted = false;
  let i = text.charCodeAt(0) === 0xfeff ? 1 : 0;
  const endRecord = () => {
    record.push(field);
    field = '';
    if (record.length > 1 || record[0] !== '') records.push(record);
    record = [];
  };
  for (; i < text.length && records.length < max; i++) {
    const ch = text[i];
    if (quoted) {
      if (ch === '"' && text[i + 1] === '"') {
        field += '"';
        i++;
      } else if (ch === '"') quoted = false;
      else field += ch;
    } else if (ch === '"') quoted = true;
    else if (ch === ',') {
      record.push(field);
      field = '';
    } else if (ch === '\n' || ch === '\r') {
      if (ch === '\r' && text[i + 1] === '\n') i++;
      endRecord();
    } else field += ch;
  }
  if (records.length < max && complete && !quoted && (field !== '' || record.length)) endRecord();
  return records;
}

/** The fields a column of an import may feed, in a coordinator's words. */
const FIELDS: readonly { field: string; label: string }[] = [
  { field: 'phone_number', label: 'Phone number to call' },
  { field: 'fallback_phone_number', label: 'Second phone number' },
  { field: 'patient.first_name', label: 'First name' },
  { field: 'patient.last_name', label: 'Last name' },
  { field: 'patient.date_of_birth', label: 'Date of birth' },
  { field: 'patient.external_id', label: 'MRN (patient id)' },
  { field: 'external_id', label: 'External id (other than the MRN)' },
  { field: 'time_zone', label: 'Time zone' },
];

/**
 * A column's choices: our fields, and keeping the column as extra data under its own name (what the
 * service does with a column it does not recognise). `current` is kept even when it is none of
 * these (a mapping such as `pre_call_data.reason` made through the API).
 */
export function fieldChoices(column: string, current: string): { field: string; label: string }[] {
  const keep = { field: `input_data.${column}`, label: 'Extra data (kept with the patient)' };
  const choices = [...FIELDS, keep];
  if (!choices.some((c) => c.field === current)) choices.push({ field: current, label: current });
  return choices;
}
