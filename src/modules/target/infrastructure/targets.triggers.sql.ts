import { countTriggers, statementTriggers } from '../../../database/count-triggers.js';

/**
 * The triggers on `targets` and their functions, as they are now: the one place to read or change them.
 * Migration 1769400000000 and every later trigger install run this text (see
 * `src/database/trigger-definitions.ts`); docs/architecture.md lists what each trigger maintains and
 * who reads it. Idempotent: functions are replaced, triggers dropped and created again.
 *
 * Every trigger is a statement trigger over transition tables where it can be (a bulk add of 10,000
 * targets or a dispatcher claim of hundreds is one statement, not one trigger call per row), and every
 * trigger function runs without JIT: PL/pgSQL keeps a statement's plan per connection with the row
 * estimate of its first transition table, and a 10,000-row first run made every later 50-row run pay
 * seconds of JIT compilation for milliseconds of work.
 */
export const TARGETS_TRIGGERS = /* sql */ `
-- Who and why of a change (the target's timeline). The writer sets these transaction-local settings
-- first, through the target module's TargetEventLog.attribute or CAUSE_FROM; each is read through one
-- function, parsed once per statement. Without them the change is still recorded, as 'system', with
-- words derived from the row.
--   calling.actor      JSON {"type", "id"}: who made every change of the next statements
--   calling.actors     JSON {target id: actor}: per target, over calling.actor
--   calling.reason     words for every change of the next statements
--   calling.reasons    JSON {target id: words}: per target, over calling.reason
--   calling.step_data  JSON: the input data change is a step payload (recorded as step_data)
--   calling.deleted_at ISO 8601 instant: when the next statements' deleted targets were deleted
--                      (the writer's clock; a deletion leaves no row to carry its time)
CREATE OR REPLACE FUNCTION target_event_actor() RETURNS jsonb LANGUAGE sql STABLE AS $$
  SELECT coalesce(nullif(current_setting('calling.actor', true), '')::jsonb,
                  '{"type": "system", "id": null}'::jsonb)
$$;

CREATE OR REPLACE FUNCTION target_event_actors() RETURNS jsonb LANGUAGE sql STABLE AS $$
  SELECT coalesce(nullif(current_setting('calling.actors', true), '')::jsonb, '{}'::jsonb)
$$;

CREATE OR REPLACE FUNCTION target_event_reason() RETURNS text LANGUAGE sql STABLE AS $$
  SELECT nullif(current_setting('calling.reason', true), '')
$$;

CREATE OR REPLACE FUNCTION target_event_reasons() RETURNS jsonb LANGUAGE sql STABLE AS $$
  SELECT coalesce(nullif(current_setting('calling.reasons', true), '')::jsonb, '{}'::jsonb)
$$;

CREATE OR REPLACE FUNCTION target_event_step_data() RETURNS jsonb LANGUAGE sql STABLE AS $$
  SELECT nullif(current_setting('calling.step_data', true), '')::jsonb
$$;

CREATE OR REPLACE FUNCTION target_event_deleted_at() RETURNS timestamptz LANGUAGE sql STABLE AS $$
  SELECT nullif(current_setting('calling.deleted_at', true), '')::timestamptz
$$;

-- Instants in event data as the API writes them (ISO 8601, UTC, milliseconds, Z).
CREATE OR REPLACE FUNCTION target_event_instant(at timestamptz) RETURNS text LANGUAGE sql IMMUTABLE AS $$
  SELECT to_char(at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')
$$;

-- target_events: one 'added' event per inserted target.
CREATE OR REPLACE FUNCTION target_events_insert() RETURNS trigger LANGUAGE plpgsql
SET jit = off AS $$
DECLARE
  actor jsonb := target_event_actor();
  actors jsonb := target_event_actors();
  reason text := target_event_reason();
  reasons jsonb := target_event_reasons();
BEGIN
  INSERT INTO target_events (target_id, organization_id, campaign_id, at, kind, status,
                             actor_type, actor_id, reason, data)
  SELECT n.id, n.organization_id, n.campaign_id, n.created_at, 'added', n.status,
         coalesce(actors -> n.id::text, actor) ->> 'type', coalesce(actors -> n.id::text, actor) ->> 'id',
         coalesce(reasons ->> n.id::text, reason, CASE n.status
           WHEN 'Pending' THEN 'added, not launched: trigger calls or add with launch=true'
           WHEN 'Scheduled' THEN 'added and launched'
           WHEN 'Waiting' THEN 'added, waiting for step ' || n.current_step
           END, 'added'),
         CASE WHEN n.current_step IS NULL THEN '{}'::jsonb
              ELSE jsonb_build_object('step', n.current_step) END
    FROM new_rows n;
  RETURN NULL;
END $$;

-- target_events: one 'deleted' event per deleted target (the history outlives the target).
CREATE OR REPLACE FUNCTION target_events_delete() RETURNS trigger LANGUAGE plpgsql
SET jit = off AS $$
DECLARE
  actor jsonb := target_event_actor();
  actors jsonb := target_event_actors();
  reason text := target_event_reason();
  -- A delete that sets no time (a campaign's targets going with it) takes the transaction's.
  deleted_at timestamptz := coalesce(target_event_deleted_at(), now());
BEGIN
  INSERT INTO target_events (target_id, organization_id, campaign_id, at, kind, status,
                             actor_type, actor_id, reason, data)
  SELECT o.id, o.organization_id, o.campaign_id, deleted_at, 'deleted', NULL,
         coalesce(actors -> o.id::text, actor) ->> 'type', coalesce(actors -> o.id::text, actor) ->> 'id',
         coalesce(reason, 'deleted'),
         jsonb_build_object('last_status', o.status)
    FROM old_rows o;
  RETURN NULL;
END $$;

-- target_events: what an update changed, old and new rows paired by the primary key (id,
-- organization_id). One row may give several events (an edit and a move never share a statement
-- today, but the trigger does not rely on it). Updates that change none of status, input data or a
-- Scheduled target's due time (outputs, categorisation) record nothing.
CREATE OR REPLACE FUNCTION target_events_update() RETURNS trigger LANGUAGE plpgsql
SET jit = off AS $$
DECLARE
  actor jsonb := target_event_actor();
  actors jsonb := target_event_actors();
  reason text := target_event_reason();
  reasons jsonb := target_event_reasons();
  step_data jsonb := target_event_step_data();
BEGIN
  INSERT INTO target_events (target_id, organization_id, campaign_id, at, kind, status,
                             actor_type, actor_id, reason, data)
  SELECT n.id, n.organization_id, n.campaign_id, n.updated_at, e.kind, e.status,
         coalesce(actors -> n.id::text, actor) ->> 'type', coalesce(actors -> n.id::text, actor) ->> 'id',
         -- Never null (a status set by hand, a Waiting target without a step): the change is
         -- recorded whatever its words.
         coalesce(reasons ->> n.id::text, reason, e.default_reason, e.kind), e.data
    FROM old_rows o
    JOIN new_rows n ON n.id = o.id AND n.organization_id = o.organization_id
    CROSS JOIN LATERAL (
      SELECT CASE WHEN step_data IS NULL THEN 'input_edited' ELSE 'step_data' END AS kind,
             NULL::text AS status,
             CASE WHEN step_data IS NULL THEN 'input data edited'
                  ELSE 'step data received' END AS default_reason,
             coalesce(step_data, '{}'::jsonb) || jsonb_build_object('keys', (
               SELECT coalesce(jsonb_agg(k ORDER BY k), '[]'::jsonb)
                 FROM jsonb_each(n.input_data) AS x(k, v)
                WHERE (o.input_data -> k) IS DISTINCT FROM v)) AS data
       WHERE n.input_data IS DISTINCT FROM o.input_data
      UNION ALL
      SELECT 'call_started', n.status, 'call placed: attempt ' || n.attempts,
             jsonb_build_object('call_log_id', n.call_log_ids[array_upper(n.call_log_ids, 1)],
                                'attempt', n.attempts)
       WHERE n.status = 'In Progress' AND o.status NOT IN ('In Progress', 'Post-processing')
      UNION ALL
      SELECT 'call_ended', CASE WHEN n.status <> o.status THEN n.status END,
             'call ended: ' || coalesce(n.outcome, n.status),
             jsonb_build_object('call_log_id', o.call_log_ids[array_upper(o.call_log_ids, 1)],
                                'attempt', n.attempts, 'outcome', n.outcome,
                                'resolution', n.resolution, 'category', n.category,
                                'subcategory', n.subcategory,
                                'next_attempt_at', CASE WHEN n.status = 'Scheduled'
                                    THEN target_event_instant(n.scheduled_time) END)
       WHERE o.status IN ('In Progress', 'Post-processing')
         AND n.status NOT IN ('In Progress', 'Post-processing')
      UNION ALL
      SELECT 'status_changed', n.status,
             CASE WHEN n.status = 'Waiting' AND n.current_step IS NOT NULL
                    THEN 'waiting for step ' || n.current_step
                  WHEN n.outcome IS NOT NULL AND n.outcome IS DISTINCT FROM o.outcome
                    THEN lower(n.status) || ': ' || n.outcome
                  ELSE o.status || ' -> ' || n.status END,
             jsonb_strip_nulls(jsonb_build_object('from', o.status, 'step', n.current_step,
                                'outcome', CASE WHEN n.outcome IS DISTINCT FROM o.outcome
                                                THEN n.outcome END,
                                'resolution', n.resolution,
                                'scheduled_time', CASE WHEN n.status = 'Scheduled'
                                    THEN target_event_instant(n.scheduled_time) END))
       WHERE n.status <> o.status
         AND NOT (n.status = 'In Progress' AND o.status NOT IN ('In Progress', 'Post-processing'))
         AND NOT (o.status IN ('In Progress', 'Post-processing')
                  AND n.status NOT IN ('In Progress', 'Post-processing'))
      UNION ALL
      SELECT 'deferred', NULL, 'deferred',
             jsonb_build_object('scheduled_time', target_event_instant(n.scheduled_time))
       WHERE n.status = 'Scheduled' AND o.status = 'Scheduled'
         AND n.scheduled_time IS DISTINCT FROM o.scheduled_time
    ) e;
  RETURN NULL;
END $$;

${statementTriggers('targets', 'targets_events', 'target_events')}
-- target_count_deltas: +1/-1 per target by (organization, campaign, status, category, resolution, due
-- minute, called). due_minute is a Scheduled target's scheduled_time cut to its minute (date_bin: the
-- same in every time zone); called is last_call_date IS NOT NULL. Groups that net to zero (most
-- updates move no dimension) append nothing.
${countTriggers({
  on: 'targets',
  trigger: 'targets_count',
  into: 'target_count_deltas',
  columns: 'organization_id, campaign_id, status, category, resolution, due_minute, called, delta',
  keys: `organization_id, campaign_id, status, category, resolution,
                 CASE WHEN status = 'Scheduled'
                      THEN date_bin('1 minute', scheduled_time, timestamptz 'epoch') END AS due_minute,
                 last_call_date IS NOT NULL AS called`,
  amounts: { delta: '1' },
  group: 'organization_id, campaign_id, status, category, resolution, due_minute, called',
})}
-- target_position_counts: +1/-1 per target by (campaign, status, second of creation), each row
-- naming its stretch of creation time [created_from, created_until): a second here; compaction
-- (target-position-counts.ts) folds consecutive stretches into blocks of about a thousand targets.
-- Groups that net to zero (an update that moves no status) append nothing.
${countTriggers({
  on: 'targets',
  trigger: 'targets_position',
  into: 'target_position_counts',
  columns: 'campaign_id, created_from, created_until, status, delta',
  keys: `campaign_id, date_bin('1 second', created_at, timestamptz 'epoch') AS created_second, status`,
  amounts: { delta: '1' },
  group: 'campaign_id, created_second, status',
  select: `campaign_id, created_second, created_second + interval '1 second', status, sum(delta)`,
})}
-- target_last_call_counts: +1/-1 per called target by (campaign, second of creation, minute of last
-- call, status), each row naming its two stretches [created_from, created_until) and [called_from,
-- called_until); compaction (target-last-call-counts.ts) folds them into the campaign's creation
-- blocks and stretches of last calls. Targets whose cell did not change cancel out and append nothing.
${countTriggers({
  on: 'targets',
  trigger: 'targets_last_call',
  into: 'target_last_call_counts',
  columns: 'campaign_id, created_from, created_until, called_from, called_until, status, delta',
  keys: `campaign_id, status,
                 date_bin('1 second', created_at, timestamptz 'epoch') AS created_second,
                 date_bin('1 minute', last_call_date, timestamptz 'epoch') AS called_minute`,
  amounts: { delta: '1' },
  where: 'last_call_date IS NOT NULL',
  group: 'campaign_id, created_second, called_minute, status',
  select: `campaign_id, created_second, created_second + interval '1 second',
         called_minute, called_minute + interval '1 minute', status, sum(delta)`,
})}`;
