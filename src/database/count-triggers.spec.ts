import { CALL_LOGS_TRIGGERS } from '../modules/call-log/infrastructure/call-logs.triggers.sql.js';
import { TARGETS_TRIGGERS } from '../modules/target/infrastructure/targets.triggers.sql.js';

/**
 * The count triggers are generated (count-triggers.ts). Two tables' triggers as they were written by
 * hand before, in the form all of them have now: the generated text is the same statements. Equal
 * once whitespace is collapsed and column aliases dropped (the hand-written update named its columns
 * in the first branch of its UNION ALL only, where they take effect). The other count tables (insert
 * and delete by count(*) then) are held to their behaviour by the e2e tests of the lists and stats.
 */
const comparable = (sql: string) =>
  sql
    .replace(/^--.*$/gm, '')
    .replace(/\s+AS\s+\w+/g, '')
    .replace(/\s+/g, ' ')
    .replace(/\( /g, '(')
    .trim();

const TARGET_COUNT_DELTAS = /* sql */ `
-- target_count_deltas: +1/-1 per target by (organization, campaign, status, category, resolution, due
-- minute, called). due_minute is a Scheduled target's scheduled_time cut to its minute (date_bin: the
-- same in every time zone); called is last_call_date IS NOT NULL. Groups that net to zero (most
-- updates move no dimension) append nothing.
CREATE OR REPLACE FUNCTION target_count_deltas_insert() RETURNS trigger LANGUAGE plpgsql
SET jit = off AS $$
BEGIN
  INSERT INTO target_count_deltas
    (organization_id, campaign_id, status, category, resolution, due_minute, called, delta)
  SELECT organization_id, campaign_id, status, category, resolution, due_minute, called, sum(delta)
    FROM (SELECT organization_id, campaign_id, status, category, resolution,
                 CASE WHEN status = 'Scheduled'
                      THEN date_bin('1 minute', scheduled_time, timestamptz 'epoch') END AS due_minute,
                 last_call_date IS NOT NULL AS called, 1 AS delta
            FROM new_rows) moves
   GROUP BY organization_id, campaign_id, status, category, resolution, due_minute, called
  HAVING sum(delta) <> 0;
  RETURN NULL;
END $$;

CREATE OR REPLACE FUNCTION target_count_deltas_delete() RETURNS trigger LANGUAGE plpgsql
SET jit = off AS $$
BEGIN
  INSERT INTO target_count_deltas
    (organization_id, campaign_id, status, category, resolution, due_minute, called, delta)
  SELECT organization_id, campaign_id, status, category, resolution, due_minute, called, sum(delta)
    FROM (SELECT organization_id, campaign_id, status, category, resolution,
                 CASE WHEN status = 'Scheduled'
                      THEN date_bin('1 minute', scheduled_time, timestamptz 'epoch') END AS due_minute,
                 last_call_date IS NOT NULL AS called, -1 AS delta
            FROM old_rows) moves
   GROUP BY organization_id, campaign_id, status, category, resolution, due_minute, called
  HAVING sum(delta) <> 0;
  RETURN NULL;
END $$;

CREATE OR REPLACE FUNCTION target_count_deltas_update() RETURNS trigger LANGUAGE plpgsql
SET jit = off AS $$
BEGIN
  INSERT INTO target_count_deltas
    (organization_id, campaign_id, status, category, resolution, due_minute, called, delta)
  SELECT organization_id, campaign_id, status, category, resolution, due_minute, called, sum(delta)
    FROM (SELECT organization_id, campaign_id, status, category, resolution,
                 CASE WHEN status = 'Scheduled'
                      THEN date_bin('1 minute', scheduled_time, timestamptz 'epoch') END AS due_minute,
                 last_call_date IS NOT NULL AS called, -1 AS delta
            FROM old_rows
          UNION ALL
          SELECT organization_id, campaign_id, status, category, resolution,
                 CASE WHEN status = 'Scheduled'
                      THEN date_bin('1 minute', scheduled_time, timestamptz 'epoch') END,
                 last_call_date IS NOT NULL, 1
            FROM new_rows) moves
   GROUP BY organization_id, campaign_id, status, category, resolution, due_minute, called
  HAVING sum(delta) <> 0;
  RETURN NULL;
END $$;

DROP TRIGGER IF EXISTS targets_count_insert ON targets;
CREATE TRIGGER targets_count_insert AFTER INSERT ON targets
REFERENCING NEW TABLE AS new_rows
FOR EACH STATEMENT EXECUTE FUNCTION target_count_deltas_insert();

DROP TRIGGER IF EXISTS targets_count_delete ON targets;
CREATE TRIGGER targets_count_delete AFTER DELETE ON targets
REFERENCING OLD TABLE AS old_rows
FOR EACH STATEMENT EXECUTE FUNCTION target_count_deltas_delete();

DROP TRIGGER IF EXISTS targets_count_update ON targets;
CREATE TRIGGER targets_count_update AFTER UPDATE ON targets
REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
FOR EACH STATEMENT EXECUTE FUNCTION target_count_deltas_update();

`;

const CALL_LOG_COUNT_DELTAS = /* sql */ `
-- call_log_count_deltas: per (organization, campaign, ended, outcome) the count, how many have a
-- duration and the sum of their durations. Groups that net to zero (most updates) append nothing.
CREATE OR REPLACE FUNCTION call_log_count_deltas_insert() RETURNS trigger LANGUAGE plpgsql
SET jit = off AS $$
BEGIN
  INSERT INTO call_log_count_deltas
    (organization_id, campaign_id, ended, outcome, delta, timed, duration_seconds)
  SELECT organization_id, campaign_id, ended, outcome, sum(delta), sum(timed), sum(seconds)
    FROM (SELECT organization_id, campaign_id, ended_at IS NOT NULL AS ended, outcome, 1 AS delta,
                 (duration_seconds IS NOT NULL)::int AS timed, coalesce(duration_seconds, 0) AS seconds
            FROM new_rows) moves
   GROUP BY organization_id, campaign_id, ended, outcome
  HAVING sum(delta) <> 0 OR sum(timed) <> 0 OR sum(seconds) <> 0;
  RETURN NULL;
END $$;

CREATE OR REPLACE FUNCTION call_log_count_deltas_delete() RETURNS trigger LANGUAGE plpgsql
SET jit = off AS $$
BEGIN
  INSERT INTO call_log_count_deltas
    (organization_id, campaign_id, ended, outcome, delta, timed, duration_seconds)
  SELECT organization_id, campaign_id, ended, outcome, sum(delta), sum(timed), sum(seconds)
    FROM (SELECT organization_id, campaign_id, ended_at IS NOT NULL AS ended, outcome, -1 AS delta,
                 -(duration_seconds IS NOT NULL)::int AS timed, -coalesce(duration_seconds, 0) AS seconds
            FROM old_rows) moves
   GROUP BY organization_id, campaign_id, ended, outcome
  HAVING sum(delta) <> 0 OR sum(timed) <> 0 OR sum(seconds) <> 0;
  RETURN NULL;
END $$;

CREATE OR REPLACE FUNCTION call_log_count_deltas_update() RETURNS trigger LANGUAGE plpgsql
SET jit = off AS $$
BEGIN
  INSERT INTO call_log_count_deltas
    (organization_id, campaign_id, ended, outcome, delta, timed, duration_seconds)
  SELECT organization_id, campaign_id, ended, outcome, sum(delta), sum(timed), sum(seconds)
    FROM (SELECT organization_id, campaign_id, ended_at IS NOT NULL AS ended, outcome, -1 AS delta,
                 -(duration_seconds IS NOT NULL)::int AS timed, -coalesce(duration_seconds, 0) AS seconds
            FROM old_rows
          UNION ALL
          SELECT organization_id, campaign_id, ended_at IS NOT NULL, outcome, 1,
                 (duration_seconds IS NOT NULL)::int, coalesce(duration_seconds, 0)
            FROM new_rows) moves
   GROUP BY organization_id, campaign_id, ended, outcome
  HAVING sum(delta) <> 0 OR sum(timed) <> 0 OR sum(seconds) <> 0;
  RETURN NULL;
END $$;

DROP TRIGGER IF EXISTS call_logs_count_insert ON call_logs;
CREATE TRIGGER call_logs_count_insert AFTER INSERT ON call_logs
REFERENCING NEW TABLE AS new_rows
FOR EACH STATEMENT EXECUTE FUNCTION call_log_count_deltas_insert();

DROP TRIGGER IF EXISTS call_logs_count_delete ON call_logs;
CREATE TRIGGER call_logs_count_delete AFTER DELETE ON call_logs
REFERENCING OLD TABLE AS old_rows
FOR EACH STATEMENT EXECUTE FUNCTION call_log_count_deltas_delete();

DROP TRIGGER IF EXISTS call_logs_count_update ON call_logs;
CREATE TRIGGER call_logs_count_update AFTER UPDATE ON call_logs
REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
FOR EACH STATEMENT EXECUTE FUNCTION call_log_count_deltas_update();
`;

describe('count triggers', () => {
  it('are the hand-written statements of target_count_deltas', () => {
    expect(comparable(TARGETS_TRIGGERS)).toContain(comparable(TARGET_COUNT_DELTAS));
  });

  it('are the hand-written statements of call_log_count_deltas', () => {
    expect(comparable(CALL_LOGS_TRIGGERS)).toContain(comparable(CALL_LOG_COUNT_DELTAS));
  });
});
