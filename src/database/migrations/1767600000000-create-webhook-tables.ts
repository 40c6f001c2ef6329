import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Outbound webhooks: the transactional outbox (`webhook_events`), one delivery per event and endpoint
 * (`webhook_deliveries`, the truth a delivery job reads and claims), and every attempt made.
 */
export class CreateWebhookTables1767600000000 implements MigrationInterface {
  name = 'CreateWebhookTables1767600000000';

  async up(q: QueryRunner): Promise<void> {
    // No foreign key to targets: notifications outlive a deleted target, like call logs do. `json`, not
    // `jsonb`: the body is sent exactly as the outbox wrote it (keys in the documented order).
    await q.query(`
      CREATE TABLE webhook_events (
        id uuid PRIMARY KEY,
        organization_id uuid NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
        campaign_id uuid NOT NULL REFERENCES campaigns(id) ON DELETE CASCADE,
        target_id uuid NOT NULL,
        type text NOT NULL,
        payload json NOT NULL,
        created_at timestamptz NOT NULL
      )`);
    await q.query(
      `CREATE INDEX webhook_events_campaign_created_idx ON webhook_events (campaign_id, created_at)`,
    );

    await q.query(`
      CREATE TABLE webhook_deliveries (
        id uuid PRIMARY KEY,
        event_id uuid NOT NULL REFERENCES webhook_events(id) ON DELETE CASCADE,
        organization_id uuid NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
        campaign_id uuid NOT NULL REFERENCES campaigns(id) ON DELETE CASCADE,
        status text NOT NULL,
        attempts integer NOT NULL DEFAULT 0,
        run_attempts integer NOT NULL DEFAULT 0,
        next_attempt_at timestamptz,
        lease_token uuid,
        lease_until timestamptz,
        last_status_code integer,
        last_error text,
        last_attempt_at timestamptz,
        delivered_at timestamptz,
        event_created_at timestamptz NOT NULL,
        created_at timestamptz NOT NULL,
        updated_at timestamptz NOT NULL
      )`);
    // Listing by campaign (optionally by status) in creation order, and the rerun window on failed ones.
    await q.query(
      `CREATE INDEX webhook_deliveries_campaign_idx ON webhook_deliveries (campaign_id, created_at, id)`,
    );
    await q.query(
      `CREATE INDEX webhook_deliveries_campaign_status_idx ON webhook_deliveries (campaign_id, status, event_created_at)`,
    );
    // The recovery sweep: unfinished deliveries whose job may have been lost.
    await q.query(
      `CREATE INDEX webhook_deliveries_unfinished_idx ON webhook_deliveries (next_attempt_at) WHERE status IN ('pending', 'sending')`,
    );

    await q.query(`
      CREATE TABLE webhook_delivery_attempts (
        id bigserial PRIMARY KEY,
        delivery_id uuid NOT NULL REFERENCES webhook_deliveries(id) ON DELETE CASCADE,
        attempted_at timestamptz NOT NULL,
        url text,
        status_code integer,
        duration_ms integer NOT NULL,
        success boolean NOT NULL,
        error text,
        response_excerpt text
      )`);
    await q.query(
      `CREATE INDEX webhook_delivery_attempts_delivery_idx ON webhook_delivery_attempts (delivery_id, id)`,
    );
  }

  async down(q: QueryRunner): Promise<void> {
    for (const table of ['webhook_delivery_attempts', 'webhook_deliveries', 'webhook_events']) {
      await q.query(`DROP TABLE IF EXISTS ${table}`);
    }
  }
}
