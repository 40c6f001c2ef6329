import { countTriggers } from '../../../database/count-triggers.js';

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
${countTriggers({
  on: 'call_logs',
  trigger: 'call_logs_count',
  into: 'call_log_count_deltas',
  columns: 'organization_id, campaign_id, ended, outcome, delta, timed, duration_seconds',
  keys: 'organization_id, campaign_id, ended_at IS NOT NULL AS ended, outcome',
  amounts: {
    delta: '1',
    timed: '(duration_seconds IS NOT NULL)::int',
    seconds: 'coalesce(duration_seconds, 0)',
  },
  group: 'organization_id, campaign_id, ended, outcome',
})}
-- call_log_hour_deltas: +1/-1 per log by (organization, campaign, hour of creation; date_bin: the
-- same in every time zone). Updates are followed by the row trigger below.
${countTriggers({
  on: 'call_logs',
  trigger: 'call_logs_hour',
  into: 'call_log_hour_deltas',
  columns: 'organization_id, campaign_id, created_hour, delta',
  keys: `organization_id, campaign_id,
                 date_bin('1 hour', created_at, timestamptz 'epoch') AS created_hour`,
  amounts: { delta: '1' },
  group: 'organization_id, campaign_id, created_hour',
  operations: ['insert', 'delete'],
})}
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

DROP TRIGGER IF EXISTS call_logs_hour_move ON call_logs;
CREATE TRIGGER call_logs_hour_move AFTER UPDATE OF organization_id, campaign_id, created_at ON call_logs
FOR EACH ROW
WHEN (OLD.organization_id IS DISTINCT FROM NEW.organization_id
      OR OLD.campaign_id IS DISTINCT FROM NEW.campaign_id
      OR OLD.created_at IS DISTINCT FROM NEW.created_at)
EXECUTE FUNCTION call_log_hour_deltas_move();
`;
