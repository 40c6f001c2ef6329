import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Exact target counts for last-call bounds without counting the matching index entries (issue 10: a
 * bound at the middle of a 1M campaign's calls counted about 375,000 entries of
 * (campaign_id, last_call_date) after probing as many on the other side, 60-90 ms plus 36-46 ms, on
 * every list request: first pages p95 about 215 ms against a goal of 50 ms).
 *
 * The targets triggers append, per statement, how many targets each campaign gained or lost per
 * minute of `last_call_date` and second of `created_at`, in the same transaction, as the count deltas
 * do (migration 1767900000000: appended, never updated in place, so concurrent writers do not wait on
 * each other; readers fold them with the count deltas). A list with last-call bounds alone reads the
 * rows of the whole minutes between its bounds and the targets of the bounds' own minutes (walked on
 * `targets_campaign_last_call_idx`): that is its matches per second of creation. Their sum is the
 * count, and a page's walk starts at the second holding its first match, not at the campaign's first
 * (as for unfiltered lists, migration 1768850000000): a bound matching the later half of the calls no
 * longer walks the earlier half.
 *
 * Rows: one per (minute, creation second) pair with calls. Calls follow the creation order, roughly
 * (a campaign's targets are added in requests of thousands sharing one second, and called in turn),
 * so a 1M campaign called over a day has about as many pairs as minutes plus seconds. With too many
 * rows between the bounds, a list sums the minutes on the fewer side of each bound instead, and past
 * that counts index entries as before.
 *
 * Minutes, not seconds as for creation times (targets are added in requests of thousands sharing one
 * second) nor hours as for call logs: a campaign's calls start in rounds, continuously, at up to
 * hundreds a second on a large deployment; a minute then holds thousands of calls, and an hour's
 * partial walk would cost what counting does.
 *
 * Without a status dimension: a call's status moves (In Progress, then its outcome) leave its last
 * call date alone and append nothing; a status with a last-call bound is counted as before (split
 * on `targets_campaign_status_last_call_idx`).
 *
 * The update trigger is a statement trigger over the transition tables (a column list would keep it
 * off the updates that do not set last_call_date, but transition tables cannot have one): targets
 * whose minute did not change cancel out and append nothing (HAVING sum(delta) <> 0).
 */
export class TargetLastCallMinuteDeltas1768880000000 implements MigrationInterface {
  name = 'TargetLastCallMinuteDeltas1768880000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`LOCK TABLE targets IN SHARE MODE`);
    await q.query(`
      CREATE TABLE target_last_call_deltas (
        campaign_id uuid NOT NULL,
        last_call_minute timestamptz NOT NULL,
        created_second timestamptz NOT NULL,
        -- integer: sums stay in integer arithmetic (sum(bigint) is a numeric).
        delta integer NOT NULL
      )`);
    // A bound's side is one index-only range of the campaign's minutes, from either end.
    await q.query(
      `CREATE INDEX target_last_call_deltas_campaign_idx ON target_last_call_deltas (campaign_id, last_call_minute) INCLUDE (created_second, delta)`,
    );
    await q.query(`
      INSERT INTO target_last_call_deltas (campaign_id, last_call_minute, created_second, delta)
      SELECT campaign_id, ${LAST_CALL_MINUTE}, ${CREATED_SECOND}, count(*) FROM targets
       WHERE last_call_date IS NOT NULL GROUP BY 1, 2, 3`);

    for (const [kind, rows] of [
      ['insert', MINUTES('new_rows', '')],
      ['delete', MINUTES('old_rows', '-')],
      ['update', `${MINUTES('old_rows', '-')} UNION ALL ${MINUTES('new_rows', '')}`],
    ] as const) {
      await q.query(`
        CREATE FUNCTION target_last_call_deltas_${kind}() RETURNS trigger LANGUAGE plpgsql
        SET jit = off AS $$
        BEGIN
          INSERT INTO target_last_call_deltas (campaign_id, last_call_minute, created_second, delta)
          SELECT campaign_id, last_call_minute, created_second, sum(delta) FROM (${rows}) moves
           GROUP BY campaign_id, last_call_minute, created_second HAVING sum(delta) <> 0;
          RETURN NULL;
        END $$`);
    }
    await q.query(`
      CREATE TRIGGER targets_last_call_insert AFTER INSERT ON targets
      REFERENCING NEW TABLE AS new_rows
      FOR EACH STATEMENT EXECUTE FUNCTION target_last_call_deltas_insert()`);
    await q.query(`
      CREATE TRIGGER targets_last_call_delete AFTER DELETE ON targets
      REFERENCING OLD TABLE AS old_rows
      FOR EACH STATEMENT EXECUTE FUNCTION target_last_call_deltas_delete()`);
    await q.query(`
      CREATE TRIGGER targets_last_call_update AFTER UPDATE ON targets
      REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
      FOR EACH STATEMENT EXECUTE FUNCTION target_last_call_deltas_update()`);
  }

  async down(q: QueryRunner): Promise<void> {
    for (const kind of ['update', 'delete', 'insert']) {
      await q.query(`DROP TRIGGER IF EXISTS targets_last_call_${kind} ON targets`);
      await q.query(`DROP FUNCTION IF EXISTS target_last_call_deltas_${kind}()`);
    }
    await q.query(`DROP TABLE IF EXISTS target_last_call_deltas`);
  }
}

/** The whole minute of a last call a target is counted in (the same in every time zone). */
const LAST_CALL_MINUTE = `date_bin('1 minute', last_call_date, timestamptz 'epoch')`;

/** As in migration 1768850000000. */
const CREATED_SECOND = `date_bin('1 second', created_at, timestamptz 'epoch')`;

/** A transition table's called targets, one delta each, by campaign, minute of last call and second of creation. */
const MINUTES = (table: string, sign: '' | '-') =>
  `SELECT campaign_id, ${LAST_CALL_MINUTE} AS last_call_minute, ${CREATED_SECOND} AS created_second,
          ${sign}1 AS delta FROM ${table} WHERE last_call_date IS NOT NULL`;
