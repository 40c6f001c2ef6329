import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * A deep target page without walking the campaign's index up to it (issue 10: a random page of an
 * unfiltered 1M-target list walked up to 500,000 entries of (campaign_id, created_at, id), p95
 * 90-116 ms against a goal of 100 ms).
 *
 * Lists are ordered by (created_at, id), and a target's place in that order moves only when targets
 * are added or deleted, never when one changes status. So the targets triggers append, per statement,
 * how many targets each campaign gained or lost per second of creation time, in the same transaction,
 * as the count deltas do (migration 1767900000000: appended, never updated in place, so concurrent
 * writers do not wait on each other). A page at offset K reads the campaign's seconds in order with a
 * running sum, stops at the second holding position K, and walks the index only inside that second.
 *
 * Targets are added in requests, each request's targets share one `created_at` (the transaction's
 * time): a campaign loaded in 100 requests of 10,000 has about 100 seconds. A campaign added one
 * target a second has as many seconds as targets, and the sum then costs about what the walk did.
 *
 * No foreign key, as for the count deltas: a deleted campaign's rows sum to zero and compaction drops
 * them. `created_at` and `campaign_id` are never changed by the service; a row trigger keeps the
 * deltas right all the same if a hand-written UPDATE does.
 */
export class TargetPositionDeltas1768850000000 implements MigrationInterface {
  name = 'TargetPositionDeltas1768850000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`LOCK TABLE targets IN SHARE MODE`);
    await q.query(`
      CREATE TABLE target_position_deltas (
        campaign_id uuid NOT NULL,
        created_second timestamptz NOT NULL,
        -- integer: sums stay in integer arithmetic (sum(bigint) is a numeric); a second never holds
        -- two billion targets.
        delta integer NOT NULL
      )`);
    // The running sum is an index-only walk of the campaign's seconds, from either end.
    await q.query(
      `CREATE INDEX target_position_deltas_campaign_idx ON target_position_deltas (campaign_id, created_second) INCLUDE (delta)`,
    );
    await q.query(`
      INSERT INTO target_position_deltas (campaign_id, created_second, delta)
      SELECT campaign_id, ${CREATED_SECOND}, count(*) FROM targets GROUP BY 1, 2`);

    for (const [kind, table, sign] of [
      ['insert', 'new_rows', ''],
      ['delete', 'old_rows', '-'],
    ] as const) {
      await q.query(`
        CREATE FUNCTION target_position_deltas_${kind}() RETURNS trigger LANGUAGE plpgsql
        SET jit = off AS $$
        BEGIN
          INSERT INTO target_position_deltas (campaign_id, created_second, delta)
          SELECT campaign_id, ${CREATED_SECOND}, ${sign}count(*) FROM ${table} GROUP BY 1, 2;
          RETURN NULL;
        END $$`);
    }
    await q.query(`
      CREATE TRIGGER targets_position_insert AFTER INSERT ON targets
      REFERENCING NEW TABLE AS new_rows
      FOR EACH STATEMENT EXECUTE FUNCTION target_position_deltas_insert()`);
    await q.query(`
      CREATE TRIGGER targets_position_delete AFTER DELETE ON targets
      REFERENCING OLD TABLE AS old_rows
      FOR EACH STATEMENT EXECUTE FUNCTION target_position_deltas_delete()`);

    // A column list keeps this off every UPDATE that does not name either column (all of the
    // service's); a statement trigger with transition tables cannot have one.
    await q.query(`
      CREATE FUNCTION target_position_deltas_move() RETURNS trigger LANGUAGE plpgsql
      SET jit = off AS $$
      BEGIN
        INSERT INTO target_position_deltas (campaign_id, created_second, delta)
        VALUES (OLD.campaign_id, date_bin('1 second', OLD.created_at, timestamptz 'epoch'), -1),
               (NEW.campaign_id, date_bin('1 second', NEW.created_at, timestamptz 'epoch'), 1);
        RETURN NULL;
      END $$`);
    await q.query(`
      CREATE TRIGGER targets_position_move AFTER UPDATE OF campaign_id, created_at ON targets
      FOR EACH ROW
      WHEN (OLD.campaign_id IS DISTINCT FROM NEW.campaign_id
            OR OLD.created_at IS DISTINCT FROM NEW.created_at)
      EXECUTE FUNCTION target_position_deltas_move()`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TRIGGER IF EXISTS targets_position_move ON targets`);
    await q.query(`DROP TRIGGER IF EXISTS targets_position_delete ON targets`);
    await q.query(`DROP TRIGGER IF EXISTS targets_position_insert ON targets`);
    for (const kind of ['move', 'delete', 'insert'])
      await q.query(`DROP FUNCTION IF EXISTS target_position_deltas_${kind}()`);
    await q.query(`DROP TABLE IF EXISTS target_position_deltas`);
  }
}

/** The whole second of creation time a target is counted in (the same in every time zone). */
const CREATED_SECOND = `date_bin('1 second', created_at, timestamptz 'epoch')`;
