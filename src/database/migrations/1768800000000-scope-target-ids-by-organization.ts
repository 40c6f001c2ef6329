import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Issue 16: a client-chosen target id is unique per organization, not across all of them, so that
 * adding a target never tells an organization that another one already uses that id.
 *
 * The primary key becomes (id, organization_id): id first, so every statement that names a target by
 * id (all of them, with or without the organization) still finds it through the key's first column, as
 * before; the organization second makes the pair unique. Existing ids are globally unique, so the new
 * key holds on any existing data. No other table references `targets` by a foreign key; the rows that
 * name a target (call_logs, target_events, target_step_events, webhook_events) carry organization_id
 * already and their reads filter on it.
 *
 * The timeline's update trigger paired old and new rows by id alone: one statement updating two
 * organizations' targets of the same id would have crossed them. It now pairs by (id, organization_id).
 */
export class ScopeTargetIdsByOrganization1768800000000 implements MigrationInterface {
  name = 'ScopeTargetIdsByOrganization1768800000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(
      `ALTER TABLE targets DROP CONSTRAINT targets_pkey,
         ADD CONSTRAINT targets_pkey PRIMARY KEY (id, organization_id)`,
    );
    // As migration 1768830000000 sets on every trigger function (a data directory may have run it first).
    await q.query(
      timelineUpdateFunction(
        'n.id = o.id AND n.organization_id = o.organization_id',
        'SET jit = off',
      ),
    );
  }

  /** Fails (unique violation) once two organizations hold a target of the same id. */
  async down(q: QueryRunner): Promise<void> {
    await q.query(timelineUpdateFunction('n.id = o.id', ''));
    await q.query(
      `ALTER TABLE targets DROP CONSTRAINT targets_pkey, ADD CONSTRAINT targets_pkey PRIMARY KEY (id)`,
    );
  }
}

/**
 * The timeline's update trigger function (migration 1768200000000) with the given pairing of old and
 * new rows: up pairs them by the whole key, down by id alone as before.
 */
function timelineUpdateFunction(pairing: string, settings: string): string {
  return `
      CREATE OR REPLACE FUNCTION target_events_update() RETURNS trigger LANGUAGE plpgsql
      ${settings} AS $$
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
          JOIN new_rows n ON ${pairing}
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
      END $$`;
}
