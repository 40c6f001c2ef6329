import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * A target's history (issue 12, "why not called yet"): `target_events`, owned by the target module.
 *
 * Statement-level triggers on `targets` with transition tables write one event per changed row in the
 * same statement (so in the same transaction) as the change: a bulk add of 10,000 targets or a
 * dispatcher claim of hundreds is still one statement from the application, never one per row.
 *
 * Who and why come from transaction-local settings the writer sets first (`set_config(..., true)`,
 * see the target module's `TargetEventLog.attribute`): `calling.actor` (JSON `{"type","id"}`),
 * `calling.reason` (words for every row of the next statements) and `calling.reasons` (a JSON object
 * target id -> words, for a statement whose rows have different reasons, e.g. different windows) and
 * `calling.step_data` (JSON: the input data change is a step payload; recorded as `step_data` with it).
 * `calling.actors` (a JSON object target id -> actor) overrides `calling.actor` per row, for a statement
 * whose rows were moved by different causes (a batch of calls ended by different provider events).
 * Without them the trigger still records the event, as `system`, with a reason it derives from the row.
 *
 * No foreign key to `targets`: a target's `deleted` event (and the history before it) outlives it.
 */
export class CreateTargetEvents1768200000000 implements MigrationInterface {
  name = 'CreateTargetEvents1768200000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE target_events (
        id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
        target_id uuid NOT NULL,
        organization_id uuid NOT NULL,
        campaign_id uuid NOT NULL,
        at timestamptz NOT NULL,
        kind text NOT NULL,
        status text,
        actor_type text NOT NULL,
        actor_id text,
        reason text NOT NULL,
        data jsonb NOT NULL DEFAULT '{}'
      )`);
    // The timeline read: one target's events, newest first, from a keyset position.
    await q.query(
      `CREATE INDEX target_events_target_at_idx ON target_events (target_id, at DESC, id DESC)`,
    );

    // The writer's attribution, parsed once per statement (not per row).
    await q.query(`
      CREATE FUNCTION target_event_actor() RETURNS jsonb LANGUAGE sql STABLE AS $$
        SELECT coalesce(nullif(current_setting('calling.actor', true), '')::jsonb,
                        '{"type": "system", "id": null}'::jsonb)
      $$`);
    await q.query(`
      CREATE FUNCTION target_event_reasons() RETURNS jsonb LANGUAGE sql STABLE AS $$
        SELECT coalesce(nullif(current_setting('calling.reasons', true), '')::jsonb, '{}'::jsonb)
      $$`);
    await q.query(`
      CREATE FUNCTION target_event_actors() RETURNS jsonb LANGUAGE sql STABLE AS $$
        SELECT coalesce(nullif(current_setting('calling.actors', true), '')::jsonb, '{}'::jsonb)
      $$`);
    // Instants in event data as the API writes them (ISO 8601, UTC, milliseconds, Z).
    await q.query(`
      CREATE FUNCTION target_event_instant(at timestamptz) RETURNS text LANGUAGE sql IMMUTABLE AS $$
        SELECT to_char(at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')
      $$`);

    await q.query(`
      CREATE FUNCTION target_events_insert() RETURNS trigger LANGUAGE plpgsql AS $$
      DECLARE
        actor jsonb := target_event_actor();
        actors jsonb := target_event_actors();
        reason text := nullif(current_setting('calling.reason', true), '');
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
      END $$`);

    await q.query(`
      CREATE FUNCTION target_events_delete() RETURNS trigger LANGUAGE plpgsql AS $$
      DECLARE
        actor jsonb := target_event_actor();
        actors jsonb := target_event_actors();
        reason text := nullif(current_setting('calling.reason', true), '');
      BEGIN
        INSERT INTO target_events (target_id, organization_id, campaign_id, at, kind, status,
                                   actor_type, actor_id, reason, data)
        SELECT o.id, o.organization_id, o.campaign_id, now(), 'deleted', NULL,
               coalesce(actors -> o.id::text, actor) ->> 'type', coalesce(actors -> o.id::text, actor) ->> 'id', coalesce(reason, 'deleted'),
               jsonb_build_object('last_status', o.status)
          FROM old_rows o;
        RETURN NULL;
      END $$`);

    // One row may give several events (an edit and a move never share a statement today, but the
    // trigger does not rely on it). Updates that change none of status, input data or a Scheduled
    // target's due time (outputs, categorisation) record nothing.
    await q.query(`
      CREATE FUNCTION target_events_update() RETURNS trigger LANGUAGE plpgsql AS $$
      DECLARE
        actor jsonb := target_event_actor();
        actors jsonb := target_event_actors();
        reason text := nullif(current_setting('calling.reason', true), '');
        reasons jsonb := target_event_reasons();
        step_data jsonb := nullif(current_setting('calling.step_data', true), '')::jsonb;
      BEGIN
        INSERT INTO target_events (target_id, organization_id, campaign_id, at, kind, status,
                                   actor_type, actor_id, reason, data)
        SELECT n.id, n.organization_id, n.campaign_id, n.updated_at, e.kind, e.status,
               coalesce(actors -> n.id::text, actor) ->> 'type', coalesce(actors -> n.id::text, actor) ->> 'id',
               -- Never null (a status set by hand, a Waiting target without a step): the change is
               -- recorded whatever its words.
               coalesce(reasons ->> n.id::text, reason, e.default_reason, e.kind), e.data
          FROM old_rows o
          JOIN new_rows n ON n.id = o.id
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
      END $$`);

    await q.query(`
      CREATE TRIGGER targets_events_insert AFTER INSERT ON targets
      REFERENCING NEW TABLE AS new_rows
      FOR EACH STATEMENT EXECUTE FUNCTION target_events_insert()`);
    await q.query(`
      CREATE TRIGGER targets_events_delete AFTER DELETE ON targets
      REFERENCING OLD TABLE AS old_rows
      FOR EACH STATEMENT EXECUTE FUNCTION target_events_delete()`);
    await q.query(`
      CREATE TRIGGER targets_events_update AFTER UPDATE ON targets
      REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
      FOR EACH STATEMENT EXECUTE FUNCTION target_events_update()`);

    // Notifications are read from the webhook module's outbox when the timeline is read (it owns the
    // tables); these indexes serve that per-target read and its join to the delivery.
    await q.query(
      `CREATE INDEX webhook_events_target_created_idx ON webhook_events (target_id, created_at DESC)`,
    );
    await q.query(`CREATE INDEX webhook_deliveries_event_idx ON webhook_deliveries (event_id)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP INDEX webhook_deliveries_event_idx`);
    await q.query(`DROP INDEX webhook_events_target_created_idx`);
    await q.query(`DROP TRIGGER targets_events_update ON targets`);
    await q.query(`DROP TRIGGER targets_events_delete ON targets`);
    await q.query(`DROP TRIGGER targets_events_insert ON targets`);
    await q.query(`DROP FUNCTION target_events_update()`);
    await q.query(`DROP FUNCTION target_events_delete()`);
    await q.query(`DROP FUNCTION target_events_insert()`);
    await q.query(`DROP FUNCTION target_event_instant(timestamptz)`);
    await q.query(`DROP FUNCTION target_event_actors()`);
    await q.query(`DROP FUNCTION target_event_reasons()`);
    await q.query(`DROP FUNCTION target_event_actor()`);
    await q.query(`DROP TABLE target_events`);
  }
}
