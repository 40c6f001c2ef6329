import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * `GET /campaigns/{id}/stats` without scanning a campaign's targets or call logs (issue 12: < 50 ms p95
 * at 1M targets, exact). The count deltas the lists keep (migrations 1767900000000/1) gain the
 * dimensions the stats report, still appended by statement-level triggers in the same transactions:
 *
 * - targets: per (campaign, status, category, resolution, due minute). `due_minute` is the
 *   `scheduled_time` of a `Scheduled` target cut to its minute (null otherwise): everything due in a
 *   minute before the current one is due now, everything in a later minute is due later, and only the
 *   current minute's few targets are counted from the index below.
 * - call logs: per (organization, campaign, ended, outcome) with the count, how many have a duration
 *   and the sum of their durations (connect rate and mean length). A call ends by an update, so
 *   call_logs now has an update trigger too; updates that change none of these append nothing.
 *
 * The existing rows are recomputed from the tables, under a lock that keeps writers out meanwhile.
 */
export class ExtendCountDeltasForStats1768300000000 implements MigrationInterface {
  name = 'ExtendCountDeltasForStats1768300000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`LOCK TABLE targets, call_logs IN SHARE MODE`);

    await q.query(`
      ALTER TABLE target_count_deltas
        ADD COLUMN category text, ADD COLUMN resolution text, ADD COLUMN due_minute timestamptz`);
    await q.query(`DELETE FROM target_count_deltas`);
    await q.query(`
      INSERT INTO target_count_deltas (organization_id, campaign_id, status, category, resolution, due_minute, delta)
      SELECT organization_id, campaign_id, status, category, resolution, ${DUE_MINUTE}, count(*)
        FROM targets GROUP BY 1, 2, 3, 4, 5, 6`);
    await q.query(targetDeltasFunction('insert', TARGET_ROWS('new_rows', '')));
    await q.query(targetDeltasFunction('delete', TARGET_ROWS('old_rows', '-')));
    // Step data, outcomes' details, edits: most updates move none of these and append nothing.
    await q.query(
      targetDeltasFunction(
        'update',
        `${TARGET_ROWS('old_rows', '-')} UNION ALL SELECT ${TARGET_ROWS('new_rows', '')}`,
      ),
    );
    // The next scheduled time and the current minute's due targets of one campaign.
    await q.query(
      `CREATE INDEX targets_campaign_due_idx ON targets (campaign_id, scheduled_time) WHERE status = 'Scheduled'`,
    );

    await q.query(`
      ALTER TABLE call_log_count_deltas
        ADD COLUMN ended boolean NOT NULL DEFAULT false,
        ADD COLUMN outcome text,
        ADD COLUMN timed bigint NOT NULL DEFAULT 0,
        ADD COLUMN duration_seconds bigint NOT NULL DEFAULT 0`);
    await q.query(`DELETE FROM call_log_count_deltas`);
    // The stats read one campaign's rows (the lists read an organization's, by the existing index).
    await q.query(
      `CREATE INDEX call_log_count_deltas_campaign_idx ON call_log_count_deltas (campaign_id)`,
    );
    await q.query(`
      INSERT INTO call_log_count_deltas (organization_id, campaign_id, ended, outcome, delta, timed, duration_seconds)
      SELECT organization_id, campaign_id, ended_at IS NOT NULL, outcome, count(*),
             count(duration_seconds), coalesce(sum(duration_seconds), 0)
        FROM call_logs GROUP BY 1, 2, 3, 4`);
    await q.query(callLogDeltasFunction('insert', CALL_LOG_MEASURES('new_rows', '')));
    await q.query(callLogDeltasFunction('delete', CALL_LOG_MEASURES('old_rows', '-')));
    await q.query(
      callLogDeltasFunction(
        'update',
        `${CALL_LOG_MEASURES('old_rows', '-')} UNION ALL SELECT ${CALL_LOG_MEASURES('new_rows', '')}`,
      ),
    );
    await q.query(`
      CREATE TRIGGER call_logs_count_update AFTER UPDATE ON call_logs
      REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
      FOR EACH STATEMENT EXECUTE FUNCTION call_log_count_deltas_update()`);
    // The recent call rate: a campaign's starts in the last minutes, a short range of this index.
    await q.query(
      `CREATE INDEX call_logs_campaign_started_idx ON call_logs (campaign_id, started_at)`,
    );
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`LOCK TABLE targets, call_logs IN SHARE MODE`);
    await q.query(`DROP INDEX call_logs_campaign_started_idx`);
    await q.query(`DROP TRIGGER call_logs_count_update ON call_logs`);
    await q.query(`DROP FUNCTION call_log_count_deltas_update()`);
    await q.query(`DROP INDEX call_log_count_deltas_campaign_idx`);
    await q.query(`
      CREATE OR REPLACE FUNCTION call_log_count_deltas_insert() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        INSERT INTO call_log_count_deltas (organization_id, campaign_id, delta)
        SELECT organization_id, campaign_id, count(*) FROM new_rows GROUP BY organization_id, campaign_id;
        RETURN NULL;
      END $$`);
    await q.query(`
      CREATE OR REPLACE FUNCTION call_log_count_deltas_delete() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        INSERT INTO call_log_count_deltas (organization_id, campaign_id, delta)
        SELECT organization_id, campaign_id, -count(*) FROM old_rows GROUP BY organization_id, campaign_id;
        RETURN NULL;
      END $$`);
    await q.query(`
      ALTER TABLE call_log_count_deltas
        DROP COLUMN ended, DROP COLUMN outcome, DROP COLUMN timed, DROP COLUMN duration_seconds`);

    await q.query(`DROP INDEX targets_campaign_due_idx`);
    await q.query(`
      CREATE OR REPLACE FUNCTION target_count_deltas_insert() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        INSERT INTO target_count_deltas (organization_id, campaign_id, status, delta)
        SELECT organization_id, campaign_id, status, count(*) FROM new_rows
        GROUP BY organization_id, campaign_id, status;
        RETURN NULL;
      END $$`);
    await q.query(`
      CREATE OR REPLACE FUNCTION target_count_deltas_delete() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        INSERT INTO target_count_deltas (organization_id, campaign_id, status, delta)
        SELECT organization_id, campaign_id, status, -count(*) FROM old_rows
        GROUP BY organization_id, campaign_id, status;
        RETURN NULL;
      END $$`);
    await q.query(`
      CREATE OR REPLACE FUNCTION target_count_deltas_update() RETURNS trigger LANGUAGE plpgsql AS $$
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
      ALTER TABLE target_count_deltas
        DROP COLUMN category, DROP COLUMN resolution, DROP COLUMN due_minute`);
  }
}

/** The minute a `Scheduled` target is due in; date_bin does not depend on the session's time zone. */
const DUE_MINUTE = `CASE WHEN status = 'Scheduled' THEN date_bin('1 minute', scheduled_time, timestamptz 'epoch') END`;

const TARGET_ROWS = (table: string, sign: '' | '-') =>
  `organization_id, campaign_id, status, category, resolution, ${DUE_MINUTE} AS due_minute,
   ${sign}1 AS delta FROM ${table}`;

function targetDeltasFunction(kind: string, rows: string): string {
  return `
    CREATE OR REPLACE FUNCTION target_count_deltas_${kind}() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      INSERT INTO target_count_deltas (organization_id, campaign_id, status, category, resolution, due_minute, delta)
      SELECT organization_id, campaign_id, status, category, resolution, due_minute, sum(delta) FROM (
        SELECT ${rows}) moves
      GROUP BY organization_id, campaign_id, status, category, resolution, due_minute
      HAVING sum(delta) <> 0;
      RETURN NULL;
    END $$`;
}

const CALL_LOG_MEASURES = (table: string, sign: '' | '-') =>
  `organization_id, campaign_id, ended_at IS NOT NULL AS ended, outcome, ${sign}1 AS delta,
   ${sign}(duration_seconds IS NOT NULL)::int AS timed, ${sign}coalesce(duration_seconds, 0) AS seconds
   FROM ${table}`;

function callLogDeltasFunction(kind: string, rows: string): string {
  return `
    CREATE OR REPLACE FUNCTION call_log_count_deltas_${kind}() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      INSERT INTO call_log_count_deltas (organization_id, campaign_id, ended, outcome, delta, timed, duration_seconds)
      SELECT organization_id, campaign_id, ended, outcome, sum(delta), sum(timed), sum(seconds) FROM (
        SELECT ${rows}) moves
      GROUP BY organization_id, campaign_id, ended, outcome
      HAVING sum(delta) <> 0 OR sum(timed) <> 0 OR sum(seconds) <> 0;
      RETURN NULL;
    END $$`;
}
