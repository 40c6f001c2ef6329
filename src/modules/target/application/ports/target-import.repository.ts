import { Tx } from '../../../../common/persistence/unit-of-work.js';
import { TargetDraft } from '../../domain/new-targets.js';
import type { ImportColumn } from '../../domain/import-columns.js';
import {
  ImportOptions,
  ImportStatus,
  PreviewRow,
  ReportRows,
  RowError,
  TargetImport,
} from '../../domain/target-import.js';

/** A new import: its ids and options, created (and last updated) at `now`. */
export interface NewImport extends ImportOptions {
  id: string;
  organizationId: string;
  campaignId: string;
  now: Date;
}

/** The rows an upload held, and how many of them had errors. */
export type ImportCounts = Pick<TargetImport, 'totalRows' | 'invalidRows'>;

/** A staged row to insert: its number in the file and its valid target. */
export interface ChunkRow {
  row: number;
  draft: TargetDraft & { id: string };
}

/** One CSV record as staged: a valid target (with its id already chosen) or its errors. */
export interface StagedRow {
  row: number;
  draft: (TargetDraft & { id: string }) | null;
  errors: RowError[] | null;
  /** The column of a caller-supplied id (null when the id is generated). */
  idColumn: string | null;
  /** The column the external id came from. */
  externalIdColumn: string | null;
}

export interface ImportChunkResult {
  /** The last row number of the chunk. */
  through: number;
  rows: number;
  created: number;
  /** Row numbers ignored as duplicates (or lost to a concurrent add of the same external id). */
  ignored: number[];
  /**
   * Keep the staging rows of the targets created (allow_duplicates=false: until the import ends, it
   * may have to take them back, and they say which).
   */
  keepCreated: boolean;
}

/**
 * CSV imports and their staging rows (`target_imports`, `target_import_rows`), owned by the target
 * module. Every read from the API is scoped by organization.
 */
export abstract class TargetImportRepository {
  abstract create(imp: NewImport): Promise<void>;

  /** Records how the file's columns were read and its first good rows as they will be stored. */
  abstract describe(
    importId: string,
    columns: ImportColumn[] | null,
    preview: PreviewRow[],
  ): Promise<void>;

  /** Stages a batch of rows in one statement; `updated_at` becomes `now` (the upload is alive). */
  abstract stageRows(importId: string, rows: StagedRow[], now: Date): Promise<void>;

  /**
   * Ends a `receiving` import `failed` with `failure` (and the rows counted so far), dropping its
   * staged rows; false when it was no longer receiving.
   */
  abstract failUpload(
    importId: string,
    failure: string,
    now: Date,
    counts: ImportCounts,
  ): Promise<boolean>;

  /**
   * Ends `failed` with `failure` every import still `receiving` with no row staged since `before` (its
   * upload died with its process), up to `limit`, dropping their staged rows; their ids.
   */
  abstract failStalledUploads(
    before: Date,
    failure: string,
    now: Date,
    limit: number,
  ): Promise<string[]>;

  /** Drops an import that never finished receiving (a malformed file), with its rows. */
  abstract delete(importId: string): Promise<void>;

  /** Sets the status (and the row counts once received). */
  abstract setStatus(
    tx: Tx | null,
    importId: string,
    status: ImportStatus,
    now: Date,
    counts?: ImportCounts,
  ): Promise<void>;

  /** Null when unknown, or in another organization when one is given. */
  abstract find(organizationId: string | null, importId: string): Promise<TargetImport | null>;

  /**
   * Once, before anything is inserted: marks every row whose external id the campaign already holds or
   * an earlier row of the file uses as `duplicate`; records as row errors the caller ids that exist or
   * repeat, and (when `!allowDuplicates`) the duplicates. Sets `checked` and `invalid_rows`. Returns the
   * import as it is afterwards.
   */
  abstract check(importId: string, now: Date): Promise<TargetImport>;

  /**
   * With `allowDuplicates=false`, after a chunk lost a race (another import or add committed one of
   * its external ids after the check) and the import's earlier targets were withdrawn (`withdrawn` of
   * them): records as the check records a duplicate (a row error, `invalid_rows` counted, the draft
   * dropped) the `taken` rows and every other row whose external id the campaign holds now in a target
   * not its own, and takes the withdrawn targets off `created` and `processed_rows`. So the report is
   * the check's answer at that moment, as if the import had run then alone.
   */
  abstract rejectAfterLostRace(
    tx: Tx,
    importId: string,
    taken: number[],
    withdrawn: number,
    now: Date,
  ): Promise<void>;

  /**
   * The targets created for rows after `after` up to `through` whose staging rows were kept
   * (`keepCreated`), in row order, at most `limit`.
   */
  abstract createdTargets(
    tx: Tx,
    importId: string,
    after: number,
    through: number,
    limit: number,
  ): Promise<{ row: number; targetId: string }[]>;

  /** The next rows to insert, in file order, after row `after`. */
  abstract nextChunk(importId: string, after: number, limit: number): Promise<ChunkRow[]>;

  /**
   * Claims the rows after `after` up to `through` for insertion in this transaction, before
   * inserting them: false (nothing written) when another run already moved the progress past `after`
   * (the caller then rolls back). The row lock makes a concurrent run wait for this one's outcome.
   */
  abstract claimChunk(
    tx: Tx,
    importId: string,
    after: number,
    through: number,
    now: Date,
  ): Promise<boolean>;

  /**
   * Counts a claimed chunk's outcome and drops the staging rows of the targets it created (unless
   * `keepCreated`).
   */
  abstract recordChunk(
    tx: Tx,
    importId: string,
    after: number,
    chunk: ImportChunkResult,
  ): Promise<void>;

  /**
   * Ends the import: the final status, `finished_at`, and (a dry run) the duplicates as ignored.
   * Staged rows that carry neither errors nor an ignore are deleted. Returns the ended import, or null
   * when it had already ended.
   */
  abstract finish(
    tx: Tx,
    importId: string,
    status: ImportStatus,
    now: Date,
  ): Promise<TargetImport | null>;

  /**
   * Queued or running imports not updated since `before` (their job was lost with a worker), up to
   * `limit`; their `updated_at` is set to `now` in the same statement, so one sweep takes each.
   */
  abstract claimStalled(tx: Tx, before: Date, now: Date, limit: number): Promise<string[]>;

  /** Up to `limit` rows with errors and ignored rows each, in row order. */
  abstract reportRows(importId: string, limit: number): Promise<ReportRows>;
}
