import { MigrationInterface, QueryRunner } from 'typeorm';

/** The `deleted` timeline event's insert; `at` is the expression giving its time. */
const targetEventsDelete = (at: string) => `
  CREATE OR REPLACE FUNCTION target_events_delete() RETURNS trigger LANGUAGE plpgsql
  SET jit = off AS $$
  DECLARE
    actor jsonb := target_event_actor();
    actors jsonb := target_event_actors();
    reason text := nullif(current_setting('calling.reason', true), '');
  BEGIN
    INSERT INTO target_events (target_id, organization_id, campaign_id, at, kind, status,
                               actor_type, actor_id, reason, data)
    SELECT o.id, o.organization_id, o.campaign_id, ${at}, 'deleted', NULL,
           coalesce(actors -> o.id::text, actor) ->> 'type', coalesce(actors -> o.id::text, actor) ->> 'id', coalesce(reason, 'deleted'),
           jsonb_build_object('last_status', o.status)
      FROM old_rows o;
    RETURN NULL;
  END $$`;

/**
 * A deleted target's `deleted` event takes its time from the writer (`calling.deleted_at`, set by the
 * deleting statement from the service's clock), as the other events take theirs from the rows the
 * writer stamped: a test that moves the clock moves the whole timeline. A delete that sets no time (a
 * campaign's targets going with it) falls back to the transaction's.
 */
export class DeletedEventTimeFromWriter1769350000000 implements MigrationInterface {
  name = 'DeletedEventTimeFromWriter1769350000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(
      targetEventsDelete(
        `coalesce(nullif(current_setting('calling.deleted_at', true), '')::timestamptz, now())`,
      ),
    );
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(targetEventsDelete('now()'));
  }
}
