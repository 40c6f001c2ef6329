import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Target lists whatever a campaign's shape: counts per stretch of creation time and status
 * (`target_position_counts`) replace the counts per second of creation (`target_position_deltas`),
 * and counts per stretch of creation time and stretch of last calls (`target_last_call_counts`)
 * replace those per second of creation and minute of last call (`target_last_call_deltas`).
 *
 * A deep page, a creation window and a status's page all need a target's place in the campaign's
 * (created_at, id) order. Counted per second, a campaign fed one patient at a time has a row per
 * target, and the running sum cost what the walk it saved did. Here each row names its stretch of
 * creation time [created_from, created_until). The triggers append a second's rows, as before, and
 * compaction folds consecutive stretches into blocks of about a thousand targets (see
 * target-position-counts.ts): a 1M-target campaign keeps about a thousand blocks, however its
 * targets arrived. The status is a dimension too, so a status's deep pages and windows are found the
 * same way. Last calls are counted per creation block, stretch of last calls (each holding some
 * thousands of calls) and status, so a last-call bound, with or without a status, cuts one stretch,
 * whose calls are read from the index. The status's creation index carries last_call_date, so a
 * status's walk with last-call bounds reads the index alone.
 *
 * The new triggers are installed by the trigger install that follows (1769610000000); this one
 * replaces the table and drops the old triggers and functions. Rows start per second and are
 * folded by the first list that reads them.
 */
export class TargetListCounts1769600000000 implements MigrationInterface {
  name = 'TargetListCounts1769600000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`LOCK TABLE targets IN SHARE MODE`);
    // Rows written by a compaction are marked folded: a list tells a campaign's rows due from the
    // count of those appended since, in the same pass that sums them (no grouping). Existing rows
    // count as appended, so the first read folds them.
    await q.query(
      `ALTER TABLE target_count_deltas ADD COLUMN folded boolean NOT NULL DEFAULT false`,
    );
    await q.query(
      `CREATE INDEX target_count_deltas_campaign_status_idx ON target_count_deltas (campaign_id, status) INCLUDE (organization_id, called, folded, delta)`,
    );
    await q.query(`DROP INDEX target_count_deltas_campaign_idx`);
    await q.query(`
      CREATE TABLE target_position_counts (
        campaign_id uuid NOT NULL,
        created_from timestamptz NOT NULL,
        created_until timestamptz NOT NULL,
        status text NOT NULL,
        -- integer: sums stay in integer arithmetic (sum(bigint) is a numeric).
        delta integer NOT NULL
      )`);
    // A list reads all of a campaign's rows, index-only, in creation order.
    await q.query(
      `CREATE INDEX target_position_counts_campaign_idx ON target_position_counts (campaign_id, created_from) INCLUDE (created_until, status, delta)`,
    );
    await q.query(`
      INSERT INTO target_position_counts (campaign_id, created_from, created_until, status, delta)
      SELECT campaign_id, created_second, created_second + interval '1 second', status, count(*)
        FROM (SELECT campaign_id, status,
                     date_bin('1 second', created_at, timestamptz 'epoch') AS created_second
                FROM targets) t
       GROUP BY campaign_id, created_second, status`);
    await q.query(`DROP TRIGGER IF EXISTS targets_position_insert ON targets`);
    await q.query(`DROP TRIGGER IF EXISTS targets_position_delete ON targets`);
    await q.query(`DROP TRIGGER IF EXISTS targets_position_move ON targets`);
    for (const kind of ['insert', 'delete', 'move'])
      await q.query(`DROP FUNCTION IF EXISTS target_position_deltas_${kind}()`);
    await q.query(`DROP TABLE target_position_deltas`);

    await q.query(`
      CREATE TABLE target_last_call_counts (
        campaign_id uuid NOT NULL,
        created_from timestamptz NOT NULL,
        created_until timestamptz NOT NULL,
        called_from timestamptz NOT NULL,
        called_until timestamptz NOT NULL,
        status text NOT NULL,
        delta integer NOT NULL
      )`);
    // A list reads a campaign's cells, or those of one status, index-only.
    await q.query(
      `CREATE INDEX target_last_call_counts_campaign_idx ON target_last_call_counts (campaign_id, status) INCLUDE (created_from, created_until, called_from, called_until, delta)`,
    );
    await q.query(`
      INSERT INTO target_last_call_counts
        (campaign_id, created_from, created_until, called_from, called_until, status, delta)
      SELECT campaign_id, created_second, created_second + interval '1 second',
             called_minute, called_minute + interval '1 minute', status, count(*)
        FROM (SELECT campaign_id, status,
                     date_bin('1 second', created_at, timestamptz 'epoch') AS created_second,
                     date_bin('1 minute', last_call_date, timestamptz 'epoch') AS called_minute
                FROM targets WHERE last_call_date IS NOT NULL) t
       GROUP BY campaign_id, created_second, called_minute, status`);
    // A status's walk with last-call bounds filters its creation order on last_call_date: in the
    // index, that walk reads no table row.
    await q.query(
      `CREATE INDEX targets_campaign_status_created_lc_idx ON targets (campaign_id, status, created_at, id) INCLUDE (last_call_date)`,
    );
    await q.query(`DROP INDEX targets_campaign_status_created_idx`);
    for (const kind of ['insert', 'delete', 'update']) {
      await q.query(`DROP TRIGGER IF EXISTS targets_last_call_${kind} ON targets`);
      await q.query(`DROP FUNCTION IF EXISTS target_last_call_deltas_${kind}()`);
    }
    await q.query(`DROP TABLE target_last_call_deltas`);
  }

  async down(): Promise<void> {
    throw new Error(
      'TargetListCounts1769600000000 cannot be reverted: restore from a backup taken before it',
    );
  }
}
