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
