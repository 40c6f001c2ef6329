import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The asynchronous call lifecycle (issue 8): a call in flight holds no lease, only a deadline; provider
 * events are stored once per (connection, key); the simulator keeps its pending call ends in a table;
 * the per-provider placement rate is one row per provider. The waitlist goes: the dispatcher claims due
 * targets straight from `targets`, so a target waiting for a free slot simply stays due.
 */
export class CreateAsyncCallLifecycle1767700000000 implements MigrationInterface {
  name = 'CreateAsyncCallLifecycle1767700000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE IF EXISTS call_waitlist`);
    await q.query(`ALTER TABLE call_logs ADD COLUMN deadline_at timestamptz`);
    // Calls open at upgrade time keep the recovery they had: their lease end, or 30 minutes.
    await q.query(
      `UPDATE call_logs SET deadline_at = coalesce(lease_expires_at, started_at + interval '30 minutes')
        WHERE ended_at IS NULL`,
    );
    await q.query(`DROP INDEX IF EXISTS call_logs_lease_idx`);
    await q.query(`DROP INDEX IF EXISTS call_logs_open_idx`);
    await q.query(`ALTER TABLE call_logs DROP COLUMN lease_expires_at`);
    // The deadline sweep: open calls by deadline.
    await q.query(
      `CREATE INDEX call_logs_deadline_idx ON call_logs (deadline_at) WHERE ended_at IS NULL`,
    );
    // Events name a call by the provider's id.
    await q.query(
      `CREATE INDEX call_logs_provider_call_idx ON call_logs (provider, provider_call_id)
        WHERE provider_call_id IS NOT NULL`,
    );
    await q.query(`
      CREATE TABLE call_events (
        connection text NOT NULL,
        key text NOT NULL,
        kind text NOT NULL,
        call_log_id bigint NOT NULL,
        provider_call_id text,
        occurred_at timestamptz NOT NULL,
        received_at timestamptz NOT NULL DEFAULT now(),
        PRIMARY KEY (connection, key)
      )`);
    await q.query(`CREATE INDEX call_events_call_log_idx ON call_events (call_log_id)`);
    await q.query(`
      CREATE TABLE simulated_calls (
        id text PRIMARY KEY,
        call_log_id bigint NOT NULL,
        due_at timestamptz NOT NULL,
        request jsonb NOT NULL
      )`);
    await q.query(`CREATE INDEX simulated_calls_due_idx ON simulated_calls (due_at)`);
    await q.query(`
      CREATE TABLE call_placement_rate (
        provider text PRIMARY KEY,
        window_start timestamptz NOT NULL,
        placed integer NOT NULL,
        last_granted integer NOT NULL
      )`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE IF EXISTS call_placement_rate`);
    await q.query(`DROP TABLE IF EXISTS simulated_calls`);
    await q.query(`DROP TABLE IF EXISTS call_events`);
    await q.query(`DROP INDEX IF EXISTS call_logs_provider_call_idx`);
    await q.query(`DROP INDEX IF EXISTS call_logs_deadline_idx`);
    await q.query(`ALTER TABLE call_logs ADD COLUMN lease_expires_at timestamptz`);
    await q.query(`ALTER TABLE call_logs DROP COLUMN deadline_at`);
    await q.query(
      `CREATE TABLE call_waitlist (target_id uuid PRIMARY KEY, campaign_id uuid NOT NULL, queued_at timestamptz NOT NULL)`,
    );
  }
}
