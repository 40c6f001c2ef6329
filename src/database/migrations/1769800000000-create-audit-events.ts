import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The audit trail: one row per read of patient data, change or refusal, chained per organization by
 * `hash` (covering the row's content and `prev_hash`, the previous event's hash). Rows are never
 * updated or deleted (the triggers of audit-events.triggers.sql.ts, installed by the next migration)
 * and no retention job touches the table: events are kept at least six years.
 */
export class CreateAuditEvents1769800000000 implements MigrationInterface {
  name = 'CreateAuditEvents1769800000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE audit_events (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        organization_id uuid NOT NULL,
        seq bigint NOT NULL,
        occurred_at timestamptz NOT NULL,
        actor_kind text NOT NULL,
        actor_id text NOT NULL,
        actor_name text NOT NULL,
        actor_role text NOT NULL,
        action text NOT NULL,
        resource_type text NOT NULL,
        resource_id text,
        campaign_id uuid,
        resource_ids text[] NOT NULL DEFAULT '{}',
        outcome text NOT NULL CHECK (outcome IN ('allowed', 'refused')),
        client_address text,
        request_id text,
        changed_fields text[] NOT NULL DEFAULT '{}',
        changes jsonb,
        detail jsonb,
        prev_hash text,
        hash text NOT NULL,
        UNIQUE (organization_id, seq)
      )`);
    await q.query(
      `CREATE INDEX audit_events_actor ON audit_events (organization_id, actor_id, seq)`,
    );
    await q.query(
      `CREATE INDEX audit_events_action ON audit_events (organization_id, action, seq)`,
    );
    await q.query(
      `CREATE INDEX audit_events_resource ON audit_events (organization_id, resource_id, seq)`,
    );
    await q.query(
      `CREATE INDEX audit_events_resource_ids ON audit_events USING gin (resource_ids)`,
    );
    await q.query(
      `CREATE INDEX audit_events_occurred ON audit_events (organization_id, occurred_at)`,
    );
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE audit_events`);
  }
}
