import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Exact target counts per (campaign, status) without counting a campaign's rows on every list request
 * (issue 10: `count(*)` over 1M targets took 200-300 ms).
 *
 * Every statement that adds, deletes or moves targets appends its net change per (campaign, status) to
 * `target_count_deltas`, from statement-level triggers with transition tables, in the same transaction.
 * A count is the sum of a campaign's deltas. Appending, rather than updating one counter row, is the
 * point: concurrent transactions never wait on each other's counter rows and cannot deadlock on them.
 * The list read folds a campaign's deltas into one row per status once they pile up (see the target
 * adapter's `compactCounts`).
 *
 * No foreign key to campaigns: deleting a campaign cascades to its targets, whose delete trigger then
 * appends negative deltas for a campaign that is gone; those rows sum to zero and compaction drops them.
 */
export class CreateTargetCountDeltas1767900000000 implements MigrationInterface {
  name = 'CreateTargetCountDeltas1767900000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE target_count_deltas (
        organization_id uuid NOT NULL,
        campaign_id uuid NOT NULL,
        status text NOT NULL,
        delta bigint NOT NULL
      )`);
    // The count is an index-only sum over the campaign's (few) rows.
    await q.query(
      `CREATE INDEX target_count_deltas_campaign_idx ON target_count_deltas (campaign_id, status) INCLUDE (organization_id, delta)`,
    );
    await q.query(`
      INSERT INTO target_count_deltas (organization_id, campaign_id, status, delta)
      SELECT organization_id, campaign_id, status, count(*) FROM targets
      GROUP BY organization_id, campaign_id, status`);

    await q.query(`
      CREATE FUNCTION target_count_deltas_insert() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        INSERT INTO target_count_deltas (organization_id, campaign_id, status, delta)
        SELECT organization_id, campaign_id, status, count(*) FROM new_rows
        GROUP BY organization_id, campaign_id, status;
        RETURN NULL;
      END $$`);
    await q.query(`
      CREATE FUNCTION target_count_deltas_delete() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        INSERT INTO target_count_deltas (organization_id, campaign_id, status, delta)
        SELECT organization_id, campaign_id, status, -count(*) FROM old_rows
        GROUP BY organization_id, campaign_id, status;
        RETURN NULL;
      END $$`);
    // Most updates do not move status (step data, outcomes): they net to zero and append nothing.
    await q.query(`
      CREATE FUNCTION target_count_deltas_update() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        INSERT INTO target_count_deltas (organization_id, campaign_id, status, delta)
        SELECT organization_id, campaign_id, status, sum(delta) FROM (
          SELECT organization_id, campaign_id, status, -1 AS delta FROM old_rows
          UNION ALL
          SELECT organization_id, campaign_id, status, 1 FROM new_rows) moves
        GROUP BY organization_id, campaign_id, status
        HAVING sum(delta) <> 0;
        RETURN NULL;
      END $$`);
    await q.query(`
      CREATE TRIGGER targets_count_insert AFTER INSERT ON targets
      REFERENCING NEW TABLE AS new_rows
      FOR EACH STATEMENT EXECUTE FUNCTION target_count_deltas_insert()`);
    await q.query(`
      CREATE TRIGGER targets_count_delete AFTER DELETE ON targets
      REFERENCING OLD TABLE AS old_rows
      FOR EACH STATEMENT EXECUTE FUNCTION target_count_deltas_delete()`);
    await q.query(`
      CREATE TRIGGER targets_count_update AFTER UPDATE ON targets
      REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
      FOR EACH STATEMENT EXECUTE FUNCTION target_count_deltas_update()`);

    // Deep pages and counts with a last-call bound walk this index without visiting the table
    // (index-only): it now carries last_call_date. It replaces the plain (campaign_id, created_at, id).
    await q.query(
      `CREATE INDEX targets_campaign_created_lc_idx ON targets (campaign_id, created_at, id) INCLUDE (last_call_date)`,
    );
    await q.query(`DROP INDEX targets_campaign_created_idx`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(
      `CREATE INDEX targets_campaign_created_idx ON targets (campaign_id, created_at, id)`,
    );
    await q.query(`DROP INDEX targets_campaign_created_lc_idx`);
    await q.query(`DROP TRIGGER targets_count_update ON targets`);
    await q.query(`DROP TRIGGER targets_count_delete ON targets`);
    await q.query(`DROP TRIGGER targets_count_insert ON targets`);
    await q.query(`DROP FUNCTION target_count_deltas_update()`);
    await q.query(`DROP FUNCTION target_count_deltas_delete()`);
    await q.query(`DROP FUNCTION target_count_deltas_insert()`);
    await q.query(`DROP TABLE target_count_deltas`);
  }
}
