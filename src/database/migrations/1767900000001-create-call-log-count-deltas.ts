import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Exact call-log counts per (organization, campaign) without counting an organization's logs on every
 * list request (issue 10), as `target_count_deltas` does for targets: statement-level triggers with
 * transition tables append each statement's net change, in its transaction; the list folds them.
 * Only inserts and deletes change a count: a log's organization and campaign never change, so the
 * frequent updates (outcomes, provider ids, deadlines) carry no trigger at all.
 */
export class CreateCallLogCountDeltas1767900000001 implements MigrationInterface {
  name = 'CreateCallLogCountDeltas1767900000001';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE call_log_count_deltas (
        organization_id uuid NOT NULL,
        campaign_id uuid NOT NULL,
        delta bigint NOT NULL
      )`);
    await q.query(
      `CREATE INDEX call_log_count_deltas_idx ON call_log_count_deltas (organization_id, campaign_id) INCLUDE (delta)`,
    );
    await q.query(`
      INSERT INTO call_log_count_deltas (organization_id, campaign_id, delta)
      SELECT organization_id, campaign_id, count(*) FROM call_logs GROUP BY organization_id, campaign_id`);
    await q.query(`
      CREATE FUNCTION call_log_count_deltas_insert() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        INSERT INTO call_log_count_deltas (organization_id, campaign_id, delta)
        SELECT organization_id, campaign_id, count(*) FROM new_rows GROUP BY organization_id, campaign_id;
        RETURN NULL;
      END $$`);
    await q.query(`
      CREATE FUNCTION call_log_count_deltas_delete() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        INSERT INTO call_log_count_deltas (organization_id, campaign_id, delta)
        SELECT organization_id, campaign_id, -count(*) FROM old_rows GROUP BY organization_id, campaign_id;
        RETURN NULL;
      END $$`);
    await q.query(`
      CREATE TRIGGER call_logs_count_insert AFTER INSERT ON call_logs
      REFERENCING NEW TABLE AS new_rows
      FOR EACH STATEMENT EXECUTE FUNCTION call_log_count_deltas_insert()`);
    await q.query(`
      CREATE TRIGGER call_logs_count_delete AFTER DELETE ON call_logs
      REFERENCING OLD TABLE AS old_rows
      FOR EACH STATEMENT EXECUTE FUNCTION call_log_count_deltas_delete()`);

    // Date-bounded walks in id order test created_at inside the index (index-only deep pages).
    await q.query(
      `CREATE INDEX call_logs_organization_created_idx ON call_logs (organization_id, id) INCLUDE (created_at)`,
    );
    await q.query(`DROP INDEX call_logs_organization_idx`);
    await q.query(
      `CREATE INDEX call_logs_campaign_created_idx ON call_logs (organization_id, campaign_id, id) INCLUDE (created_at)`,
    );
    await q.query(`DROP INDEX call_logs_campaign_idx`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`CREATE INDEX call_logs_organization_idx ON call_logs (organization_id, id)`);
    await q.query(
      `CREATE INDEX call_logs_campaign_idx ON call_logs (organization_id, campaign_id, id)`,
    );
    await q.query(`DROP INDEX call_logs_organization_created_idx`);
    await q.query(`DROP INDEX call_logs_campaign_created_idx`);
    await q.query(`DROP TRIGGER call_logs_count_delete ON call_logs`);
    await q.query(`DROP TRIGGER call_logs_count_insert ON call_logs`);
    await q.query(`DROP FUNCTION call_log_count_deltas_delete()`);
    await q.query(`DROP FUNCTION call_log_count_deltas_insert()`);
    await q.query(`DROP TABLE call_log_count_deltas`);
  }
}
