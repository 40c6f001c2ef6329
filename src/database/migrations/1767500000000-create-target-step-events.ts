import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The history of step data and EHR events received per target (the future audit trail), and the
 * aggregate that merges several payloads for one target in request order inside one statement.
 */
export class CreateTargetStepEvents1767500000000 implements MigrationInterface {
  name = 'CreateTargetStepEvents1767500000000';

  async up(q: QueryRunner): Promise<void> {
    // No foreign keys on purpose: the history outlives a deleted target or a revoked key, as call logs do,
    // and a batch of 5000 rows would otherwise pay 10000 key checks against the same two rows.
    await q.query(`
      CREATE TABLE target_step_events (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        -- Arrival order, also within one batch (received_at is the same for all its rows).
        seq bigint GENERATED ALWAYS AS IDENTITY,
        organization_id uuid NOT NULL,
        campaign_id uuid NOT NULL,
        target_id uuid NOT NULL,
        kind text NOT NULL CHECK (kind IN ('webhook', 'ehr_event')),
        friendly_id text NOT NULL,
        event_type text,
        data jsonb NOT NULL,
        api_key_id uuid,
        received_at timestamptz NOT NULL DEFAULT now()
      )`);
    // The one read so far: a target's history in arrival order.
    await q.query(
      `CREATE INDEX target_step_events_target_idx ON target_step_events (target_id, seq)`,
    );
    // jsonb_concat is the function behind `||`: folding it in ORDER BY order gives "later keys win".
    await q.query(`
      CREATE AGGREGATE step_jsonb_merge(jsonb) (
        SFUNC = jsonb_concat,
        STYPE = jsonb,
        INITCOND = '{}'
      )`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP AGGREGATE IF EXISTS step_jsonb_merge(jsonb)`);
    await q.query(`DROP TABLE IF EXISTS target_step_events`);
  }
}
