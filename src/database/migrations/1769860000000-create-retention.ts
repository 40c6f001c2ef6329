import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Patient data retention (docs/compliance.md, "Retention"): the organization's windows and a
 * campaign's own (`retention_policies`, scope '' for the organization), the record of every purge run
 * and erasure (`retention_runs`), and on each target when it was purged and which parts.
 */
export class CreateRetention1769860000000 implements MigrationInterface {
  name = 'CreateRetention1769860000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE retention_policies (
        organization_id uuid NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
        scope text NOT NULL,
        campaign_id uuid REFERENCES campaigns(id) ON DELETE CASCADE,
        policy jsonb NOT NULL,
        updated_at timestamptz NOT NULL,
        PRIMARY KEY (organization_id, scope)
      )`);
    await q.query(`
      CREATE TABLE retention_runs (
        id uuid PRIMARY KEY,
        organization_id uuid NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
        kind text NOT NULL CHECK (kind IN ('purge', 'erasure')),
        trigger text NOT NULL CHECK (trigger IN ('schedule', 'api')),
        status text NOT NULL CHECK (status IN ('running', 'finished')),
        policy jsonb NOT NULL,
        subject jsonb,
        reason text,
        counts jsonb NOT NULL DEFAULT '{}',
        started_at timestamptz NOT NULL,
        finished_at timestamptz,
        api_key_id uuid
      )`);
    await q.query(
      `CREATE INDEX retention_runs_organization_idx ON retention_runs (organization_id, started_at DESC, id)`,
    );
    // A constant default: no table rewrite.
    await q.query(
      `ALTER TABLE targets ADD COLUMN purged_at timestamptz,
                          ADD COLUMN purged_parts text[] NOT NULL DEFAULT '{}'`,
    );
    // The purge walks an organization's ended targets in id order, a batch at a time.
    await q.query(
      `CREATE INDEX targets_retention_idx ON targets (organization_id, id)
        WHERE status IN ('Finished', 'Failed')`,
    );
    // The patient record and erasure find one person's targets by number or external id.
    await q.query(
      `CREATE INDEX targets_phone_number_idx ON targets (organization_id, phone_number)`,
    );
    await q.query(`CREATE INDEX targets_external_id_idx ON targets (organization_id, external_id)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP INDEX IF EXISTS targets_external_id_idx`);
    await q.query(`DROP INDEX IF EXISTS targets_phone_number_idx`);
    await q.query(`DROP INDEX IF EXISTS targets_retention_idx`);
    await q.query(`ALTER TABLE targets DROP COLUMN purged_parts, DROP COLUMN purged_at`);
    await q.query(`DROP TABLE IF EXISTS retention_runs`);
    await q.query(`DROP TABLE IF EXISTS retention_policies`);
  }
}
