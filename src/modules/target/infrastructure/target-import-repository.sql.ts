import type { ImportColumn } from '../domain/import-columns.js';
import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { NoRows, sqlExecutor } from '../../../database/sql.js';
import { Tx } from '../../../common/persistence/unit-of-work.js';
import {
  ChunkRow,
  ImportChunkResult,
  ImportCounts,
  NewImport,
  StagedRow,
  TargetImportRepository,
} from '../application/ports/target-import.repository.js';
import { ImportStatus, PreviewRow, ReportRows, TargetImport } from '../domain/target-import.js';
import {
  TARGET_IMPORT_COLUMNS,
  targetImportFromRow,
  TargetImportReportRow,
  TargetImportRow,
} from './target-import.row.js';

const FINISHED = `('succeeded', 'rejected', 'failed')`;

/**
 * A staged row's errors (`[RowError]`, jsonb) as the check finds them: a value error at the row's
 * `id` or `external_id`, naming the column it was read from, in the words `why` (SQL text).
 */
function rowError(row: string, field: 'id' | 'external_id', why: string): string {
  return `jsonb_build_array(jsonb_build_object(
    'row', ${row}.row_number, 'column', ${row}.${field}_column, 'loc', jsonb_build_array('${field}'),
    'type', 'value_error', 'msg', 'Value error, ' || ${why},
    'input', ${row}.${field === 'id' ? 'target_id' : 'external_id'}))`;
}
const ALREADY_IN_CAMPAIGN = `'this external id is already in the campaign'`;

@Injectable()
export class SqlTargetImportRepository extends TargetImportRepository {
  constructor(private readonly dataSource: DataSource) {
    super();
  }

  private sql(tx: Tx | null) {
    return sqlExecutor(this.dataSource, tx);
  }

  async create(imp: NewImport): Promise<void> {
    const { id, organizationId, campaignId, dryRun, launch, allowDuplicates, now, skipInvalid } =
      imp;
    await this.sql(null).query<NoRows>(
      `INSERT INTO target_imports
         (id, organization_id, campaign_id, status, dry_run, launch, allow_duplicates, skip_invalid,
          created_at, updated_at)
       VALUES ($1, $2, $3, 'receiving', $4, $5, $6, $8, $7, $7)`,
      [id, organizationId, campaignId, dryRun, launch, allowDuplicates, now, skipInvalid],
    );
  }

  async describe(importId: string, columns: ImportColumn[] | null, preview: PreviewRow[]) {
    await this.sql(null).query<NoRows>(
      `UPDATE target_imports SET columns = $2::jsonb, preview = $3::jsonb WHERE id = $1`,
      [importId, columns === null ? null : JSON.stringify(columns), JSON.stringify(preview)],
    );
  }

  async stageRows(importId: string, rows: StagedRow[], now: Date): Promise<void> {
    if (rows.length === 0) return;
    const records = rows.map((r) => ({
      row_number: r.row,
      target_id: r.draft?.id ?? null,
      external_id: r.draft?.externalId ?? null,
      id_column: r.idColumn,
      external_id_column: r.externalIdColumn,
      draft: r.draft,
      errors: r.errors,
    }));
    await this.sql(null).query<NoRows>(
      `WITH staged AS (
         INSERT INTO target_import_rows
           (import_id, row_number, target_id, external_id, id_column, external_id_column, draft, errors)
         SELECT $1, r.row_number, r.target_id, r.external_id, r.id_column, r.external_id_column, r.draft, r.errors
         FROM jsonb_to_recordset($2::jsonb) AS r(
           row_number integer, target_id uuid, external_id text, id_column text, external_id_column text,
           draft jsonb, errors jsonb)
         ON CONFLICT (import_id, row_number) DO NOTHING)
       UPDATE target_imports SET updated_at = $3 WHERE id = $1 AND status = 'receiving'`,
      [importId, JSON.stringify(records), now],
    );
  }

  async failUpload(importId: string, failure: string, now: Date, counts: ImportCounts) {
    const { rows } = await this.sql(null).query<{ id: string }>(
      `WITH failed AS (
         UPDATE target_imports
            SET status = 'failed', failure = $2, updated_at = $3, finished_at = $3,
                total_rows = $4, invalid_rows = $5
          WHERE id = $1 AND status = 'receiving'
         RETURNING id),
       dropped AS (DELETE FROM target_import_rows WHERE import_id IN (SELECT id FROM failed))
       SELECT id FROM failed`,
      [importId, failure, now, counts.totalRows, counts.invalidRows],
    );
    return rows.length > 0;
  }

  async failStalledUploads(before: Date, failure: string, now: Date, limit: number) {
    // One statement: concurrent sweeps each end a different import (SKIP LOCKED), never one twice.
    const { rows } = await this.sql(null).query<{ id: string }>(
      `WITH failed AS (
         UPDATE target_imports
            SET status = 'failed', failure = $2, updated_at = $3, finished_at = $3,
                total_rows = (SELECT count(*) FROM target_import_rows r WHERE r.import_id = target_imports.id),
                invalid_rows = (SELECT count(*) FROM target_import_rows r
                                 WHERE r.import_id = target_imports.id AND r.errors IS NOT NULL)
          WHERE id IN (SELECT id FROM target_imports WHERE status = 'receiving' AND updated_at < $1
                        ORDER BY updated_at LIMIT $4 FOR UPDATE SKIP LOCKED)
         RETURNING id),
       dropped AS (DELETE FROM target_import_rows WHERE import_id IN (SELECT id FROM failed))
       SELECT id FROM failed`,
      [before, failure, now, limit],
    );
    return rows.map((r) => r.id);
  }

  async delete(importId: string): Promise<void> {
    await this.sql(null).query<NoRows>(`DELETE FROM target_imports WHERE id = $1`, [importId]);
  }

  async setStatus(
    tx: Tx | null,
    importId: string,
    status: ImportStatus,
    now: Date,
    counts?: ImportCounts,
  ): Promise<void> {
    await this.sql(tx).query<NoRows>(
      `UPDATE target_imports
       SET status = $2, updated_at = $3,
           total_rows = COALESCE($4, total_rows), invalid_rows = COALESCE($5, invalid_rows)
       WHERE id = $1 AND status NOT IN ${FINISHED}`,
      [importId, status, now, counts?.totalRows ?? null, counts?.invalidRows ?? null],
    );
  }

  async find(organizationId: string | null, importId: string): Promise<TargetImport | null> {
    const { rows } = await this.sql(null).query<TargetImportRow>(
      `SELECT ${TARGET_IMPORT_COLUMNS} FROM target_imports
       WHERE id = $1 AND ($2::uuid IS NULL OR organization_id = $2)`,
      [importId, organizationId],
    );
    return rows[0] ? targetImportFromRow(rows[0]) : null;
  }

  async check(importId: string, now: Date): Promise<TargetImport> {
    // One statement: the duplicate and id checks over the whole file, against the campaign's targets.
    const { rows } = await this.sql(null).query<TargetImportRow>(
      `WITH imp AS (
         SELECT id, organization_id, campaign_id, allow_duplicates FROM target_imports WHERE id = $1 AND NOT checked
       ),
       flagged AS (
         SELECT s.row_number, s.external_id, s.target_id, s.id_column, s.external_id_column,
                first_ext, first_id,
                (s.external_id IS NOT NULL AND (s.row_number > first_ext OR EXISTS (
                   SELECT 1 FROM targets t WHERE t.campaign_id = imp.campaign_id AND t.external_id = s.external_id
                 ))) AS duplicate,
                -- Ids are unique per organization: another organization's targets are not looked at.
                s.id_column IS NOT NULL AND EXISTS (
                  SELECT 1 FROM targets t WHERE t.id = s.target_id AND t.organization_id = imp.organization_id
                ) AS id_taken,
                s.id_column IS NOT NULL AND s.row_number > first_id AS id_repeated,
                imp.allow_duplicates
         FROM imp
         JOIN LATERAL (
           SELECT r.*,
                  min(r.row_number) OVER (PARTITION BY r.external_id) AS first_ext,
                  min(r.row_number) OVER (PARTITION BY r.target_id) AS first_id
           FROM target_import_rows r WHERE r.import_id = imp.id AND r.errors IS NULL
         ) s ON true
       ),
       errs AS (
         SELECT f.row_number, f.duplicate,
                CASE WHEN f.id_taken OR f.id_repeated OR (f.duplicate AND NOT f.allow_duplicates) THEN
                  (CASE WHEN f.id_taken THEN ${rowError('f', 'id', `'a target with this id already exists'`)}
                   WHEN f.id_repeated THEN ${rowError('f', 'id', `'this id repeats row ' || f.first_id`)}
                   ELSE '[]'::jsonb END)
                  ||
                  (CASE WHEN f.duplicate AND NOT f.allow_duplicates THEN ${rowError(
                    'f',
                    'external_id',
                    `CASE WHEN f.row_number > f.first_ext THEN 'this external id repeats row ' || f.first_ext
                           ELSE ${ALREADY_IN_CAMPAIGN} END`,
                  )}
                   ELSE '[]'::jsonb END)
                END AS errors
         FROM flagged f
         WHERE f.duplicate OR f.id_taken OR f.id_repeated
       ),
       marked AS (
         UPDATE target_import_rows s
         SET duplicate = e.duplicate, errors = e.errors,
             draft = CASE WHEN e.errors IS NULL THEN s.draft END
         FROM errs e
         WHERE s.import_id = $1 AND s.row_number = e.row_number
         RETURNING s.row_number, s.errors
       )
       UPDATE target_imports i
       SET checked = true, updated_at = $2,
           invalid_rows = i.invalid_rows + (SELECT count(*) FROM marked WHERE errors IS NOT NULL)
       WHERE i.id = $1 AND NOT i.checked
       RETURNING ${TARGET_IMPORT_COLUMNS}`,
      [importId, now],
    );
    if (rows[0]) return targetImportFromRow(rows[0]);
    const imp = await this.find(null, importId);
    if (!imp) throw new Error(`Import ${importId} vanished`);
    return imp;
  }

  async rejectAfterLostRace(
    tx: Tx,
    importId: string,
    taken: number[],
    withdrawn: number,
    now: Date,
  ): Promise<void> {
    await this.sql(tx).query<NoRows>(
      `WITH imp AS (SELECT campaign_id FROM target_imports WHERE id = $1),
       marked AS (
         UPDATE target_import_rows s
         SET duplicate = true, draft = NULL, errors = ${rowError('s', 'external_id', ALREADY_IN_CAMPAIGN)}
         FROM imp
         WHERE s.import_id = $1 AND s.errors IS NULL AND s.external_id IS NOT NULL
           AND (s.row_number = ANY($2::int[]) OR EXISTS (
                  SELECT 1 FROM targets t
                  WHERE t.campaign_id = imp.campaign_id AND t.external_id = s.external_id
                    AND t.id <> s.target_id))
         RETURNING 1
       )
       UPDATE target_imports
       SET invalid_rows = invalid_rows + (SELECT count(*) FROM marked),
           created = created - $3, processed_rows = processed_rows - $3, updated_at = $4
       WHERE id = $1`,
      [importId, taken, withdrawn, now],
    );
  }

  async createdTargets(tx: Tx, importId: string, after: number, through: number, limit: number) {
    const { rows } = await this.sql(tx).query<{ row_number: number; target_id: string }>(
      `SELECT row_number, target_id FROM target_import_rows
       WHERE import_id = $1 AND row_number > $2 AND row_number <= $3
         AND errors IS NULL AND NOT ignored AND target_id IS NOT NULL
       ORDER BY row_number LIMIT $4`,
      [importId, after, through, limit],
    );
    return rows.map((r) => ({ row: r.row_number, targetId: r.target_id }));
  }

  async nextChunk(importId: string, after: number, limit: number): Promise<ChunkRow[]> {
    const { rows } = await this.sql(null).query<{ row_number: number; draft: ChunkRow['draft'] }>(
      `SELECT row_number, draft FROM target_import_rows
       WHERE import_id = $1 AND row_number > $2 AND errors IS NULL AND draft IS NOT NULL
       ORDER BY row_number LIMIT $3`,
      [importId, after, limit],
    );
    return rows.map((r) => ({ row: r.row_number, draft: r.draft }));
  }

  async claimChunk(tx: Tx, importId: string, after: number, through: number, now: Date) {
    const { rows } = await this.sql(tx).query<{ id: string }>(
      `UPDATE target_imports SET processed_through = $3, updated_at = $4
       WHERE id = $1 AND processed_through = $2 AND status NOT IN ${FINISHED}
       RETURNING id`,
      [importId, after, through, now],
    );
    return rows.length > 0;
  }

  async recordChunk(tx: Tx, importId: string, after: number, chunk: ImportChunkResult) {
    const sql = this.sql(tx);
    await sql.query<NoRows>(
      `UPDATE target_imports
       SET processed_rows = processed_rows + $2, created = created + $3, ignored_rows = ignored_rows + $4
       WHERE id = $1`,
      [importId, chunk.rows, chunk.created, chunk.ignored.length],
    );
    // The ignored rows stay for the report. The created rows' staging is no longer needed, unless
    // kept: then `finish` drops it.
    if (chunk.keepCreated) {
      if (chunk.ignored.length > 0) {
        await sql.query<NoRows>(
          `UPDATE target_import_rows SET ignored = true, draft = NULL
           WHERE import_id = $1 AND row_number = ANY($2::int[])`,
          [importId, chunk.ignored],
        );
      }
      return;
    }
    await sql.query<NoRows>(
      `WITH ign AS (
         UPDATE target_import_rows SET ignored = true, draft = NULL
         WHERE import_id = $1 AND row_number = ANY($4::int[])
       )
       DELETE FROM target_import_rows
       WHERE import_id = $1 AND row_number > $2 AND row_number <= $3 AND errors IS NULL
         AND NOT (row_number = ANY($4::int[]))`,
      [importId, after, chunk.through, chunk.ignored],
    );
  }

  async finish(tx: Tx, importId: string, status: ImportStatus, now: Date) {
    const sql = this.sql(tx);
    const { rows } = await sql.query<{ dry_run: boolean; allow_duplicates: boolean }>(
      `UPDATE target_imports SET status = $2, finished_at = $3, updated_at = $3
       WHERE id = $1 AND status NOT IN ${FINISHED}
       RETURNING dry_run, allow_duplicates`,
      [importId, status, now],
    );
    if (rows.length === 0) return null;
    if (rows[0].dry_run && rows[0].allow_duplicates) {
      // What the import would have ignored: the duplicates found by the check.
      await sql.query<NoRows>(
        `WITH ign AS (
           UPDATE target_import_rows SET ignored = true
           WHERE import_id = $1 AND duplicate AND errors IS NULL
           RETURNING 1
         )
         UPDATE target_imports SET ignored_rows = (SELECT count(*) FROM ign) WHERE id = $1`,
        [importId],
      );
    }
    await sql.query<NoRows>(
      `DELETE FROM target_import_rows WHERE import_id = $1 AND errors IS NULL AND NOT ignored`,
      [importId],
    );
    await sql.query<NoRows>(
      `UPDATE target_import_rows SET draft = NULL WHERE import_id = $1 AND draft IS NOT NULL`,
      [importId],
    );
    const final = await sql.query<TargetImportRow>(
      `SELECT ${TARGET_IMPORT_COLUMNS} FROM target_imports WHERE id = $1`,
      [importId],
    );
    return targetImportFromRow(final.rows[0]);
  }

  async claimStalled(tx: Tx, before: Date, now: Date, limit: number): Promise<string[]> {
    const { rows } = await this.sql(tx).query<{ id: string }>(
      `UPDATE target_imports SET updated_at = $2
       WHERE id IN (
         SELECT id FROM target_imports
         WHERE status IN ('queued', 'running') AND updated_at < $1
         ORDER BY updated_at LIMIT $3 FOR UPDATE SKIP LOCKED)
       RETURNING id`,
      [before, now, limit],
    );
    return rows.map((r) => r.id);
  }

  async reportRows(importId: string, limit: number): Promise<ReportRows> {
    const { rows } = await this.sql(null).query<TargetImportReportRow>(
      `(SELECT row_number, external_id, errors, false AS ignored FROM target_import_rows
         WHERE import_id = $1 AND errors IS NOT NULL ORDER BY row_number LIMIT $2)
       UNION ALL
       (SELECT row_number, external_id, NULL, true FROM target_import_rows
         WHERE import_id = $1 AND ignored ORDER BY row_number LIMIT $2)
       ORDER BY row_number`,
      [importId, limit],
    );
    return {
      errors: rows.flatMap((r) => (r.errors ? r.errors : [])),
      ignored: rows
        .filter((r) => r.ignored)
        .map((r) => ({ row: r.row_number, externalId: r.external_id as string })),
    };
  }
}
