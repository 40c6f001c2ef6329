import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Targets waiting for a free slot of their campaign (max_concurrent_calls), oldest first. When a call
 * ends, the engine wakes the first waiting target instead of having every waiting target poll.
 */
export class CreateCallWaitlist1767400000001 implements MigrationInterface {
  name = 'CreateCallWaitlist1767400000001';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE call_waitlist (
        target_id uuid PRIMARY KEY,
        campaign_id uuid NOT NULL,
        queued_at timestamptz NOT NULL
      )`);
    await q.query(
      `CREATE INDEX call_waitlist_campaign_idx ON call_waitlist (campaign_id, queued_at)`,
    );
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE IF EXISTS call_waitlist`);
  }
}
