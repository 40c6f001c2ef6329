/**
 * The triggers on `call_logs` and their functions, as they are now: the one place to read or change
 * them. Migration 1769400000000 and every later trigger install run this text (see
 * `src/database/trigger-definitions.ts`); docs/architecture.md lists what each trigger maintains and
 * who reads it. Idempotent: functions are replaced, triggers dropped and created again. The functions
 * run without JIT, for the reason given in `targets.triggers.sql.ts`.
 */
export const CALL_LOGS_TRIGGERS = /* sql */ `
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

-- call_log_hour_deltas: +1/-1 per log by (organization, campaign, hour of creation; date_bin: the
-- same in every time zone).
CREATE OR REPLACE FUNCTION call_log_hour_deltas_insert() RETURNS trigger LANGUAGE plpgsql
SET jit = off AS $$
BEGIN
  INSERT INTO call_log_hour_deltas (organization_id, campaign_id, created_hour, delta)
  SELECT organization_id, campaign_id, date_bin('1 hour', created_at, timestamptz 'epoch'), count(*)
    FROM new_rows GROUP BY 1, 2, 3;
  RETURN NULL;
END $$;

CREATE OR REPLACE FUNCTION call_log_hour_deltas_delete() RETURNS trigger LANGUAGE plpgsql
SET jit = off AS $$
BEGIN
  INSERT INTO call_log_hour_deltas (organization_id, campaign_id, created_hour, delta)
  SELECT organization_id, campaign_id, date_bin('1 hour', created_at, timestamptz 'epoch'), -count(*)
    FROM old_rows GROUP BY 1, 2, 3;
  RETURN NULL;
END $$;

-- A row trigger with a column list: it stays off every UPDATE that names none of the three (all of
-- the service's); a statement trigger with transition tables cannot have a column list.
CREATE OR REPLACE FUNCTION call_log_hour_deltas_move() RETURNS trigger LANGUAGE plpgsql
SET jit = off AS $$
BEGIN
  INSERT INTO call_log_hour_deltas (organization_id, campaign_id, created_hour, delta)
  VALUES (OLD.organization_id, OLD.campaign_id, date_bin('1 hour', OLD.created_at, timestamptz 'epoch'), -1),
         (NEW.organization_id, NEW.campaign_id, date_bin('1 hour', NEW.created_at, timestamptz 'epoch'), 1);
  RETURN NULL;
END $$;

DROP TRIGGER IF EXISTS call_logs_hour_insert ON call_logs;
CREATE TRIGGER call_logs_hour_insert AFTER INSERT ON call_logs
REFERENCING NEW TABLE AS new_rows
FOR EACH STATEMENT EXECUTE FUNCTION call_log_hour_deltas_insert();

DROP TRIGGER IF EXISTS call_logs_hour_delete ON call_logs;
CREATE TRIGGER call_logs_hour_delete AFTER DELETE ON call_logs
REFERENCING OLD TABLE AS old_rows
FOR EACH STATEMENT EXECUTE FUNCTION call_log_hour_deltas_delete();

DROP TRIGGER IF EXISTS call_logs_hour_move ON call_logs;
CREATE TRIGGER call_logs_hour_move AFTER UPDATE OF organization_id, campaign_id, created_at ON call_logs
FOR EACH ROW
WHEN (OLD.organization_id IS DISTINCT FROM NEW.organization_id
      OR OLD.campaign_id IS DISTINCT FROM NEW.campaign_id
      OR OLD.created_at IS DISTINCT FROM NEW.created_at)
EXECUTE FUNCTION call_log_hour_deltas_move();
`;
