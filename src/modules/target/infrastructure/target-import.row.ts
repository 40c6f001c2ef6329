import type { RowOf } from '../../../common/persistence/row-of.js';
import type { RowError, TargetImport } from '../domain/target-import.js';

/** `target_imports` as `pg` returns it: the domain's fields in snake_case. */
export type TargetImportRow = RowOf<TargetImport>;

export const TARGET_IMPORT_COLUMNS = `id, organization_id, campaign_id, status, dry_run, launch,
  allow_duplicates, total_rows, invalid_rows, checked, processed_through, processed_rows, created,
  ignored_rows, created_at, updated_at, finished_at, failure, skip_invalid, columns, preview`;

export function targetImportFromRow(row: TargetImportRow): TargetImport {
  return {
    id: row.id,
    organizationId: row.organization_id,
    campaignId: row.campaign_id,
    status: row.status,
    dryRun: row.dry_run,
    launch: row.launch,
    allowDuplicates: row.allow_duplicates,
    totalRows: row.total_rows,
    invalidRows: row.invalid_rows,
    checked: row.checked,
    processedThrough: row.processed_through,
    processedRows: row.processed_rows,
    created: row.created,
    ignoredRows: row.ignored_rows,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
    finishedAt: row.finished_at,
    failure: row.failure,
    skipInvalid: row.skip_invalid,
    columns: row.columns,
    preview: row.preview,
  };
}

/** `target_import_rows` columns the report reads. */
export interface TargetImportReportRow {
  row_number: number;
  external_id: string | null;
  errors: RowError[] | null;
  ignored: boolean;
}
