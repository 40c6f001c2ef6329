import { CsvError, parse } from 'csv-parse';
import type { Readable } from 'stream';
import { item, pydantic, PydanticErrorItem } from '../../../common/validation/pydantic-errors.js';
import { PydanticValidationPipe } from '../../../common/validation/pydantic-validation.pipe.js';
import { RequestValidationError } from '../../../common/validation/request-validation.error.js';
import { ImportRecord } from '../application/target-import.service.js';
import {
  columnOf,
  fieldPath,
  importColumns,
  isMappableField,
  recordToTarget,
  RowError,
  UploadInterruptedError,
} from '../domain/target-import.js';
import { CsvText, unreadableFile } from './csv-text.js';
import {
  DATE_OF_BIRTH_RULE,
  type ImportColumn,
  readDateOfBirth,
} from '../domain/import-columns.js';
import { TargetInputDto } from './dto/add-targets.dto.js';
import { toAddTargetInput } from './target.request-mapper.js';

const pipe = new PydanticValidationPipe();
/** Each record is validated as one item of the JSON add's `targets`. */
const TARGET_ITEM = { type: 'body', metatype: TargetInputDto, data: '' } as const;
/** One record (row) of the file may hold at most this many characters. */
export const MAX_RECORD_BYTES = 1024 * 1024;

const valueError = (why: string, loc: (string | number)[], input: unknown) =>
  item(pydantic.valueError(why), loc, input);

/** `Header:field,Header2:field2` (the last colon separates, a header may hold one). */
export function parseColumnMapping(value: string | undefined): Map<string, string> {
  const mapping = new Map<string, string>();
  if (!value) return mapping;
  const errors: PydanticErrorItem[] = [];
  for (const pair of value.split(',')) {
    const at = pair.lastIndexOf(':');
    const header = at > 0 ? pair.slice(0, at).trim() : '';
    const field = at > 0 ? pair.slice(at + 1).trim() : '';
    if (header && isMappableField(field)) {
      mapping.set(header, field);
    } else {
      const why =
        `"${pair}" is not <CSV header>:<field> with a field such as phone_number, ` +
        'external_id, patient.first_name or input_data.<key>';
      errors.push(valueError(why, ['query', 'columns'], value));
    }
  }
  if (errors.length > 0) throw new RequestValidationError(errors);
  return mapping;
}

/**
 * Reads a CSV upload record by record with csv-parse's streaming parser (quoted fields may hold
 * commas, quotes and line breaks; the encoding, BOM included, is `CsvText`'s) and validates each
 * record as one item of the JSON add's `targets`. The header row names the columns. Consumed lazily:
 * the parser pauses the upload while the caller stages a batch. Every parser error, and text that is
 * not valid in the file's encoding, is a 422 at `["body"]` naming the row.
 */
export async function* csvRecords(
  body: Readable,
  mapping: ReadonlyMap<string, string>,
  text: CsvText,
  /** Filled with how each column is read once the header is. */
  read: { columns: ImportColumn[] | null } = { columns: null },
): AsyncGenerator<ImportRecord> {
  const bytes = text.bytes(body);
  const parser = bytes.pipe(
    parse({
      // One character per byte: `text` decodes each record in the file's encoding.
      encoding: 'latin1',
      relax_column_count: true,
      skip_empty_lines: true,
      info: true,
      // An unclosed quote would otherwise buffer the rest of the file as one field.
      max_record_size: MAX_RECORD_BYTES,
    }),
  );
  // The upload stopping before its end (client gone, connection broken: 'error' or a 'close' before
  // 'end') ends the records with UploadInterruptedError, never a wait for data that will not come.
  const interrupted = () => {
    if (!body.readableEnded) parser.destroy(new UploadInterruptedError());
  };
  body.on('error', interrupted);
  body.on('close', interrupted);
  bytes.on('error', (error) => parser.destroy(error));
  let header: string[] | null = null;
  let paths: string[][] = [];
  let row = 1;
  try {
    for await (const { record: raw } of parser as AsyncIterable<{ record: string[] }>) {
      const record = text.decode(raw);
      if (record === null) throw text.notText(row + (header === null ? 0 : 1));
      if (header === null) {
        header = record.map((h) => h.trim());
        read.columns = importColumns(header, mapping);
        paths = read.columns.map((c) => fieldPath(c.field));
        checkHeader(header, paths, mapping);
        continue;
      }
      row++;
      yield await readRecord(record, row, header, paths);
    }
  } catch (error) {
    if (error instanceof CsvError) {
      // `records`: how many the parser had read before the one it could not (the header is one).
      const at = typeof error.records === 'number' ? `row ${error.records + 1}: ` : '';
      throw unreadableFile(`the file is not valid CSV: ${at}${error.message}`);
    }
    throw error;
  }
  if (header === null) {
    throw unreadableFile('the file is empty: a header row is required');
  }
}

function checkHeader(
  header: string[],
  paths: string[][],
  mapping: ReadonlyMap<string, string>,
): void {
  const errors: PydanticErrorItem[] = [];
  const seen = new Set<string>();
  header.forEach((name, i) => {
    const why = name === '' ? `column ${i + 1} has no name` : `column "${name}" appears twice`;
    if (name === '' || seen.has(name)) errors.push(valueError(why, ['body', 'header', i], name));
    seen.add(name);
  });
  const fields = new Set(paths.map((p) => p.join('.')));
  if (fields.size < paths.length && errors.length === 0) {
    errors.push(valueError('two columns feed the same field', ['body', 'header'], header));
  }
  if (!fields.has('phone_number')) {
    errors.push(item(pydantic.missing(), ['body', 'header', 'phone_number'], header));
  }
  for (const name of mapping.keys()) {
    if (!seen.has(name)) {
      errors.push(valueError(`the file has no column "${name}"`, ['query', 'columns'], name));
    }
  }
  if (errors.length > 0) throw new RequestValidationError(errors);
}

async function readRecord(
  record: string[],
  row: number,
  header: string[],
  paths: string[][],
): Promise<ImportRecord> {
  const refused = (errors: RowError[]): ImportRecord => {
    return { row, idColumn: null, externalIdColumn: null, input: null, errors };
  };
  if (record.length > header.length) {
    const why = `the row has ${record.length} fields, the header has ${header.length}`;
    const input = record.slice(header.length);
    return refused([{ row, column: null, loc: [], ...pydantic.valueError(why), input }]);
  }
  const target = recordToTarget(record, paths);
  const columnFor = (loc: (string | number)[]) => columnOf(loc, header, paths);
  const birth = readBirthDate(target);
  if (birth) {
    const loc = ['patient', 'date_of_birth'];
    const error = pydantic.valueError(DATE_OF_BIRTH_RULE);
    return refused([{ row, column: columnFor(loc), loc, ...error, input: birth.input }]);
  }
  let dto: TargetInputDto;
  try {
    dto = (await pipe.transform(target, TARGET_ITEM)) as TargetInputDto;
  } catch (error) {
    if (!(error instanceof RequestValidationError)) throw error;
    return refused(
      error.items.map((i) => {
        const loc = i.loc.slice(1);
        return { row, column: columnFor(loc), ...i, loc, input: storableInput(i.input) };
      }),
    );
  }
  const patientExternalId = (target.patient as Record<string, unknown> | undefined)?.external_id;
  return {
    row,
    input: toAddTargetInput(dto),
    errors: [],
    columnOf: columnFor,
    idColumn: target.id !== undefined ? columnFor(['id']) : null,
    externalIdColumn:
      target.external_id !== undefined
        ? columnFor(['external_id'])
        : patientExternalId !== undefined
          ? columnFor(['patient', 'external_id'])
          : null,
  };
}

/**
 * Reads the patient's date of birth in the forms US files write it (`03/14/1962`, `1962-03-14`) into
 * `YYYY-MM-DD`, in place; answers the value when it is not a date.
 */
function readBirthDate(target: Record<string, unknown>): { input: unknown } | null {
  const patient = target.patient as Record<string, unknown> | undefined;
  const value = patient?.date_of_birth;
  if (patient === undefined || typeof value !== 'string') return null;
  const date = readDateOfBirth(value);
  if (date === null) return { input: value };
  patient.date_of_birth = date;
  return null;
}

/**
 * A row error's input as the report can keep it: PostgreSQL's jsonb cannot hold a NUL character, so
 * one (the reason for an error about unstorable text) is shown as U+FFFD.
 */
function storableInput(input: unknown): unknown {
  if (input === undefined) return undefined;
  const json = JSON.stringify(input);
  return json.includes('\\u0000') ? JSON.parse(json.replace(/\\u0000/g, '\\ufffd')) : input;
}
