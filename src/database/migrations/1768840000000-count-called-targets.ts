import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Target lists filtered by last call date alone (`from_last_call_date` or `to_last_call_date`) without
 * counting every matching index entry (issue 10: ~750,000 entries, first pages p95 ~50-57 ms at 1M).
 *
 * The target count deltas (migrations 1767900000000 and 1768300000000) gain one dimension, `called`
 * (`last_call_date IS NOT NULL`). The list then knows how many targets have a last call date at all,
 * and counts only the smaller side of the bound from the (campaign_id, last_call_date) index, the
 * other side being the difference.
 *
 * A call start sets last_call_date on every attempt but moves it from null once per target: most
 * updates still move no dimension and append nothing (HAVING sum(delta) <> 0 per group).
 *
 * The existing rows are recomputed from the table, under a lock that keeps writers out meanwhile. The
 * functions keep `SET jit = off` (migration 1768830000000; CREATE OR REPLACE would drop it).
 */
export class CountCalledTargets1768840000000 implements MigrationInterface {
  name = 'CountCalledTargets1768840000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`LOCK TABLE targets IN SHARE MODE`);
    await q.query(
      `ALTER TABLE target_count_deltas ADD COLUMN called boolean NOT NULL DEFAULT false`,
    );
    await q.query(`ALTER TABLE target_count_deltas ALTER COLUMN called DROP DEFAULT`);
    await q.query(`DELETE FROM target_count_deltas`);
    await q.query(`
      INSERT INTO target_count_deltas
        (organization_id, campaign_id, status, category, resolution, due_minute, called, delta)
      SELECT organization_id, campaign_id, status, category, resolution, ${DUE_MINUTE},
             last_call_date IS NOT NULL, count(*)
        FROM targets GROUP BY 1, 2, 3, 4, 5, 6, 7`);
    for (const [kind, rows] of functionRows(true))
      await q.query(targetDeltasFunction(kind, rows, true));
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`LOCK TABLE targets IN SHARE MODE`);
    for (const [kind, rows] of functionRows(false))
      await q.query(targetDeltasFunction(kind, rows, false));
    // The rows still sum right per remaining group; folding merges the called and uncalled ones.
    await q.query(`ALTER TABLE target_count_deltas DROP COLUMN called`);
  }
}

/** As in migration 1768300000000. */
const DUE_MINUTE = `CASE WHEN status = 'Scheduled' THEN date_bin('1 minute', scheduled_time, timestamptz 'epoch') END`;

const TARGET_ROWS = (table: string, sign: '' | '-', called: boolean) =>
  `organization_id, campaign_id, status, category, resolution, ${DUE_MINUTE} AS due_minute,
   ${called ? 'last_call_date IS NOT NULL AS called,' : ''} ${sign}1 AS delta FROM ${table}`;

function functionRows(called: boolean): [string, string][] {
  return [
    ['insert', TARGET_ROWS('new_rows', '', called)],
    ['delete', TARGET_ROWS('old_rows', '-', called)],
    [
      'update',
      `${TARGET_ROWS('old_rows', '-', called)} UNION ALL SELECT ${TARGET_ROWS('new_rows', '', called)}`,
    ],
  ];
}

function targetDeltasFunction(kind: string, rows: string, called: boolean): string {
  const group = `organization_id, campaign_id, status, category, resolution, due_minute${called ? ', called' : ''}`;
  return `
    CREATE OR REPLACE FUNCTION target_count_deltas_${kind}() RETURNS trigger LANGUAGE plpgsql
    SET jit = off AS $$
    BEGIN
      INSERT INTO target_count_deltas (${group}, delta)
      SELECT ${group}, sum(delta) FROM (
        SELECT ${rows}) moves
      GROUP BY ${group}
      HAVING sum(delta) <> 0;
      RETURN NULL;
    END $$`;
}
