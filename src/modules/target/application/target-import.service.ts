import { Injectable, Logger } from '@nestjs/common';
import { randomUUID } from 'crypto';
import { Clock } from '../../../common/clock/clock.js';
import {
  InterruptedError,
  InvalidInputError,
  NotFoundError,
} from '../../../common/errors/domain-errors.js';
import { canonicalUuid } from '../../../common/ids/canonical-uuid.js';
import { JobQueue } from '../../../common/jobs/job-queue.js';
import { UnitOfWork } from '../../../common/persistence/unit-of-work.js';
import type { CountryCode } from '../../../common/phone/phone-number.js';
import { CampaignReader } from '../../campaign/application/ports/campaign-reader.js';
import type { ImportColumn } from '../domain/import-columns.js';
import { AddTargetInput, TargetDraft, toDraft } from '../domain/new-targets.js';
import {
  ImportOptions,
  ImportReport,
  MAX_IMPORT_ROWS,
  PREVIEW_ROWS,
  PreviewRow,
  REPORT_LIST_LIMIT,
  RowError,
  SYNC_IMPORT_MAX_ROWS,
  UploadInterruptedError,
  uploadInterrupted,
} from '../domain/target-import.js';
import { countryOf, FixedPhoneCountry, PhoneCountries } from './ports/phone-countries.js';
import { StagedRow, TargetImportRepository } from './ports/target-import.repository.js';
import { TargetImportRun } from './target-import-run.js';

export const IMPORT_QUEUE = 'target-import';

export interface ImportJob {
  importId: string;
}

/** One CSV record as the HTTP layer read it: the target it describes, or what is wrong with it. */
export interface ImportRecord {
  row: number;
  input: AddTargetInput | null;
  errors: RowError[];
  idColumn: string | null;
  externalIdColumn: string | null;
  /** The CSV column a field path (`['phone_number']`) was read from, for errors found after reading. */
  columnOf?: (loc: (string | number)[]) => string | null;
}

/** Rows staged per statement while the upload streams in. */
const STAGE_BATCH = 1000;

/**
 * CSV imports (docs/targets.md, "Import a CSV file"): the upload and the report. The upload is
 * streamed into a staging table; small files are then processed in the request, larger ones by a job
 * (`TargetImportRun`, which adds the rows). Recovery re-queues the imports whose job was lost.
 */
@Injectable()
export class TargetImportService {
  private readonly logger = new Logger('TargetImport');

  constructor(
    private readonly imports: TargetImportRepository,
    private readonly campaigns: CampaignReader,
    private readonly run: TargetImportRun,
    private readonly jobs: JobQueue,
    private readonly unitOfWork: UnitOfWork,
    private readonly clock: Clock,
    private readonly countries: PhoneCountries = new FixedPhoneCountry(),
  ) {}

  /**
   * Stages every record, then processes the import now (at most SYNC_IMPORT_MAX_ROWS rows) or queues
   * it. `records` is consumed as it is read: memory holds one batch, whatever the file's size.
   * `header.columns`: how the reader mapped the file's columns, once it has read the header.
   */
  async start(
    organizationId: string,
    campaignId: string,
    options: ImportOptions,
    records: AsyncIterable<ImportRecord>,
    header: { columns: ImportColumn[] | null } = { columns: null },
  ): Promise<{ report: ImportReport; queued: boolean }> {
    const campaign = await this.campaigns.get(organizationId, campaignId);
    const country = await countryOf(this.countries, campaign);
    const id = randomUUID();
    await this.imports.create({
      id,
      organizationId,
      campaignId: campaign.id,
      now: this.clock.now(),
      ...options,
    });
    const counts = { totalRows: 0, invalidRows: 0 };
    const preview: PreviewRow[] = [];
    try {
      let batch: StagedRow[] = [];
      for await (const record of records) {
        if (++counts.totalRows > MAX_IMPORT_ROWS) {
          throw new InvalidInputError(`A file may hold at most ${MAX_IMPORT_ROWS} rows`, []);
        }
        const staged = stage(record, country);
        if (staged.errors) counts.invalidRows++;
        else if (preview.length < PREVIEW_ROWS && staged.draft) {
          preview.push(previewRow(staged.row, staged.draft));
        }
        batch.push(staged);
        if (batch.length >= STAGE_BATCH) {
          await this.imports.stageRows(id, batch, this.clock.now());
          batch = [];
        }
      }
      await this.imports.stageRows(id, batch, this.clock.now());
      await this.imports.describe(id, header.columns, preview);
      if (counts.totalRows === 0) {
        throw new InvalidInputError('The file has a header but no rows', []);
      }
    } catch (error) {
      if (error instanceof UploadInterruptedError) {
        // Not the file's fault: the import ends failed, saying so, for whoever follows it by id.
        const failure = uploadInterrupted(counts.totalRows);
        await this.imports.failUpload(id, failure, this.clock.now(), counts);
        this.logger.warn({ importId: id, rows: counts.totalRows }, 'CSV upload interrupted');
        throw new InterruptedError(failure);
      }
      // A file that cannot be read to the end is refused as a whole: nothing is kept.
      await this.imports.delete(id);
      throw error;
    }

    const queued = counts.totalRows > SYNC_IMPORT_MAX_ROWS;
    if (queued) {
      await this.unitOfWork.run(async (tx) => {
        await this.imports.setStatus(tx, id, 'queued', this.clock.now(), counts);
        await this.jobs.enqueue(tx, { queue: IMPORT_QUEUE, data: { importId: id } });
      });
    } else {
      await this.imports.setStatus(null, id, 'running', this.clock.now(), counts);
      await this.run.process(id);
    }
    return { report: await this.report(organizationId, id), queued };
  }

  /** The import with its row errors and ignored rows; another organization's is not found. */
  async report(organizationId: string, importId: string): Promise<ImportReport> {
    const id = canonicalUuid(importId);
    const imp = id ? await this.imports.find(organizationId, id) : null;
    if (!imp) throw new NotFoundError(`Import ${importId} not found`);
    const rows = await this.imports.reportRows(imp.id, REPORT_LIST_LIMIT);
    return { import: imp, ...rows };
  }

  /**
   * Ends `failed` the imports still `receiving` with no row received since `before`: their upload died
   * with the process that read it (an upload that broke in a live process ends at once, in `start`).
   */
  async failStalledUploads(before: Date): Promise<number> {
    const failure = uploadInterrupted(null);
    const ids = await this.imports.failStalledUploads(before, failure, this.clock.now(), 100);
    return ids.length;
  }

  /** Re-queues the imports whose job was lost (no progress since `before`); returns how many. */
  async recoverStalled(before: Date): Promise<number> {
    return this.unitOfWork.run(async (tx) => {
      const ids = await this.imports.claimStalled(tx, before, this.clock.now(), 100);
      await this.jobs.enqueue(
        tx,
        ids.map((importId) => ({
          queue: IMPORT_QUEUE,
          // No singletonKey: the lost job may still count as active; a second run is harmless.
          data: { importId } satisfies ImportJob,
        })),
      );
      return ids.length;
    });
  }
}

function previewRow(row: number, draft: TargetDraft): PreviewRow {
  const { phoneNumber, fallbackPhoneNumber, externalId, timeZone, patient, inputData } = draft;
  return { row, phoneNumber, fallbackPhoneNumber, externalId, timeZone, patient, inputData };
}

/** A record as staged: its draft (id chosen now, so a rerun inserts the same target) or its errors. */
function stage(record: ImportRecord, country: CountryCode): StagedRow {
  const { row, idColumn, externalIdColumn } = record;
  const base = { row, idColumn, externalIdColumn };
  if (record.errors.length > 0 || record.input === null) {
    return { ...base, draft: null, errors: record.errors };
  }
  try {
    const draft = toDraft(record.input, 0, country);
    return { ...base, draft: { ...draft, id: draft.id ?? randomUUID() }, errors: null };
  } catch (error) {
    if (!(error instanceof InvalidInputError)) throw error;
    const loc = error.field.slice(2);
    const column = record.columnOf?.(loc) ?? loc.map(String).join('.');
    const msg = `Value error, ${error.message}`;
    const input = error.input ?? null;
    return {
      ...base,
      draft: null,
      errors: [{ row, column, loc, type: 'value_error', msg, input }],
    };
  }
}
