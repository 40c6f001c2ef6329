/**
 * CSV imports of targets: which CSV column feeds which field of a target, how a row error names its
 * column, and the lifecycle of an import. Plain TypeScript: the HTTP layer parses, the service stages.
 */

import { type ImportColumn, proposeColumns } from './import-columns.js';
import type { PatientInput } from './target.js';

/** The fields a column may feed directly; any other column goes into `input_data` under its name. */
export const IMPORT_FIELDS = [
  'id',
  'external_id',
  'phone_number',
  'fallback_phone_number',
  'time_zone',
  'patient.first_name',
  'patient.last_name',
  'patient.date_of_birth',
  'patient.phone_number',
  'patient.external_id',
] as const;

/** Prefixes a column name may use to land in a nested object: `input_data.x`, `pre_call_data.x`, ... */
export const IMPORT_OBJECT_PREFIXES = ['input_data.', 'pre_call_data.', 'patient.extra_data.'];

/** Up to this many data rows an import is processed in the request (200); more is a job (202). */
export const SYNC_IMPORT_MAX_ROWS = 10000;
/** A file may hold at most this many data rows. */
export const MAX_IMPORT_ROWS = 1000000;
/** Rows inserted per transaction by the import job (as one JSON add request at most). */
export const IMPORT_CHUNK_ROWS = 5000;
/** Rows listed in a report's `errors` and `ignored` (the counts are always complete). */
export const REPORT_LIST_LIMIT = 10000;

export const IMPORT_STATUSES = [
  'receiving',
  'queued',
  'running',
  'succeeded',
  'rejected',
  'failed',
] as const;
export type ImportStatus = (typeof IMPORT_STATUSES)[number];

export function isFinished(status: ImportStatus): boolean {
  return status === 'succeeded' || status === 'rejected' || status === 'failed';
}

export interface ImportOptions {
  dryRun: boolean;
  launch: boolean;
  allowDuplicates: boolean;
  /** `on_error=skip`: the good rows are added, the bad ones reported; else any bad row adds nothing. */
  skipInvalid: boolean;
}

/** Rows of the file shown as they will be stored, in the report (the first good ones). */
export const PREVIEW_ROWS = 5;

/** A good row as it will be stored: numbers in E.164, the date of birth as YYYY-MM-DD. */
export interface PreviewRow {
  row: number;
  phoneNumber: string;
  fallbackPhoneNumber: string | null;
  externalId: string | null;
  timeZone: string | null;
  patient: PatientInput | null;
  inputData: Record<string, unknown>;
}

/** One problem with one CSV row: pydantic's type and words, the field path and the CSV column. */
export interface RowError {
  /** The record's row in the file, the header being row 1. */
  row: number;
  /** The CSV column, or null when the error is about the row as a whole (too many fields). */
  column: string | null;
  /** The path in the target, as the JSON add would report it under `["body", "targets", i, ...]`. */
  loc: (string | number)[];
  type: string;
  msg: string;
  input?: unknown;
  ctx?: Record<string, unknown>;
}

export interface TargetImport extends ImportOptions {
  id: string;
  organizationId: string;
  campaignId: string;
  status: ImportStatus;
  totalRows: number;
  invalidRows: number;
  /** Duplicates found (and, with allow_duplicates=false, ids taken) before inserting anything. */
  checked: boolean;
  /** The last row number inserted (rows are inserted in file order). */
  processedThrough: number;
  processedRows: number;
  created: number;
  ignoredRows: number;
  createdAt: Date;
  updatedAt: Date;
  finishedAt: Date | null;
  /** Why a `failed` import failed, in words (null otherwise). */
  failure: string | null;
  /** How the file's columns were read (null until its header was). */
  columns: ImportColumn[] | null;
  /** The first good rows as they will be stored (null until the file was read). */
  preview: PreviewRow[] | null;
}

/**
 * The upload stopped before the end of its file (the client went away or the connection broke): the
 * import ends `failed`, saying so. Thrown by whatever reads the upload.
 */
export class UploadInterruptedError extends Error {
  constructor() {
    super('The upload was interrupted before the end of the file');
  }
}

/** The `failure` of an import whose upload stopped; `rows`: the rows received before it stopped. */
export function uploadInterrupted(rows: number | null): string {
  const received = rows === null ? '' : ` after ${rows} row${rows === 1 ? '' : 's'}`;
  return `The upload was interrupted${received}, before the end of the file: nothing was added. Send the file again.`;
}

/** The lists of a report: row errors and ignored rows, each in row order. */
export interface ReportRows {
  errors: RowError[];
  ignored: { row: number; externalId: string }[];
}

export interface ImportReport extends ReportRows {
  import: TargetImport;
}

/**
 * Each column's field. `explicit` (from the `columns` query parameter) maps a header to a field; every
 * other header maps to itself when it is a known field or prefix, else to the field it is recognised
 * as (`Phone`, `MRN`, `Date of Birth`: see import-columns.ts), else to `input_data.<header>`.
 */
export function importColumns(
  header: readonly string[],
  explicit: ReadonlyMap<string, string>,
): ImportColumn[] {
  return proposeColumns(header, explicit, (name) => (isMappableField(name) ? name : null));
}

/** The nested object a field names by its prefix (`input_data.`, `patient.extra_data.`), if any. */
const objectPrefix = (field: string) =>
  IMPORT_OBJECT_PREFIXES.find((p) => field.startsWith(p) && field.length > p.length);

const isImportField = (field: string) => (IMPORT_FIELDS as readonly string[]).includes(field);

export function fieldPath(field: string): string[] {
  if (isImportField(field)) return field.split('.');
  const prefix = objectPrefix(field);
  if (prefix === undefined) return ['input_data', field];
  return [...prefix.slice(0, -1).split('.'), field.slice(prefix.length)];
}

/** Whether `field` can be the target of an explicit mapping. */
export function isMappableField(field: string): boolean {
  return isImportField(field) || objectPrefix(field) !== undefined;
}

/**
 * The target object a record describes, in the shape of one item of the JSON add's `targets`. An empty
 * cell is no value (the field is absent). Cells beyond the header are not read (the row is an error).
 */
export function recordToTarget(
  record: readonly string[],
  paths: readonly string[][],
): Record<string, unknown> {
  const target: Record<string, unknown> = {};
  paths.forEach((path, i) => {
    const value = record[i];
    if (value === undefined || value === '') return;
    // No field's path is a prefix of another's: a node on the way is an object or not yet set.
    let node = target;
    for (const key of path.slice(0, -1)) node = (node[key] ??= {}) as Record<string, unknown>;
    node[path[path.length - 1]] = value;
  });
  return target;
}

/**
 * The column an error at `loc` (a path in the target) comes from: the column whose path is the
 * longest prefix of `loc`; for a field no column feeds (a missing phone number), the field's name.
 */
export function columnOf(
  loc: readonly (string | number)[],
  header: readonly string[],
  paths: readonly string[][],
): string | null {
  let best: { column: string; length: number } | null = null;
  for (const [i, path] of paths.entries()) {
    const n = Math.min(path.length, loc.length);
    let k = 0;
    while (k < n && String(loc[k]) === path[k]) k++;
    const covers = k === path.length || (k === loc.length && k > 0);
    if (covers && (!best || k > best.length)) best = { column: header[i], length: k };
  }
  if (best) return best.column;
  return loc.length > 0 ? loc.filter((p) => typeof p === 'string').join('.') : null;
}
