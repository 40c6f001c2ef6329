import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * CSV imports of targets (docs/targets.md, "Import a CSV file"). `target_imports` is the import and its
 * progress; `target_import_rows` is the staging table the upload is streamed into, one row per CSV
 * record (the validated target, or its errors), so a queued import survives a worker restart and the
 * job reads it back in chunks. Rows of targets that were created are deleted when the import ends;
 * the rows with errors or that were ignored stay for the report.
 *
 * Import events (`import.finished`) have no target: `webhook_events.target_id` becomes nullable.
 */
export class CreateTargetImports1768100000000 implements MigrationInterface {
  name = 'CreateTargetImports1768100000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE target_imports (
        id uuid PRIMARY KEY,
        organization_id uuid NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
        campaign_id uuid NOT NULL REFERENCES campaigns(id) ON DELETE CASCADE,
        status text NOT NULL,
        dry_run boolean NOT NULL,
        launch boolean NOT NULL,
        allow_duplicates boolean NOT NULL,
        total_rows integer NOT NULL DEFAULT 0,
        invalid_rows integer NOT NULL DEFAULT 0,
        checked boolean NOT NULL DEFAULT false,
        processed_through integer NOT NULL DEFAULT 0,
        processed_rows integer NOT NULL DEFAULT 0,
        created integer NOT NULL DEFAULT 0,
        ignored_rows integer NOT NULL DEFAULT 0,
        created_at timestamptz NOT NULL,
        updated_at timestamptz NOT NULL,
        finished_at timestamptz
      )`);
    await q.query(
      `CREATE INDEX target_imports_campaign_created_idx ON target_imports (campaign_id, created_at)`,
    );
    await q.query(`
      CREATE TABLE target_import_rows (
        import_id uuid NOT NULL REFERENCES target_imports(id) ON DELETE CASCADE,
        row_number integer NOT NULL,
        target_id uuid,
        external_id text,
        -- The CSV columns that fed the id and the external id, to name them in a row error.
        id_column text,
        external_id_column text,
        draft jsonb,
        errors jsonb,
        duplicate boolean NOT NULL DEFAULT false,
        ignored boolean NOT NULL DEFAULT false,
        PRIMARY KEY (import_id, row_number)
      )`);
    await q.query(`ALTER TABLE webhook_events ALTER COLUMN target_id DROP NOT NULL`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DELETE FROM webhook_events WHERE target_id IS NULL`);
    await q.query(`ALTER TABLE webhook_events ALTER COLUMN target_id SET NOT NULL`);
    await q.query(`DROP TABLE target_import_rows`);
    await q.query(`DROP TABLE target_imports`);
  }
}
