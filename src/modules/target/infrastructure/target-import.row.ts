import { rowMapper, type RowOf } from '../../../common/persistence/row-of.js';
import type { RowError, TargetImport } from '../domain/target-import.js';

/** `target_imports` as `pg` returns it: the domain's fields in snake_case. */
export type TargetImportRow = RowOf<TargetImport>;

export const TARGET_IMPORT_COLUMNS = `id, organization_id, campaign_id, status, dry_run, launch,
  allow_duplicates, total_rows, invalid_rows, checked, processed_through, processed_rows, created,
  ignored_rows, created_at, updated_at, finished_at, failure, skip_invalid, columns, preview`;

export const targetImportFromRow = rowMapper<TargetImport>()(TARGET_IMPORT_COLUMNS);

/** `target_import_rows` columns the report reads. */
export interface TargetImportReportRow {
  row_number: number;
  external_id: string | null;
  errors: RowError[] | null;
  ignored: boolean;
}
