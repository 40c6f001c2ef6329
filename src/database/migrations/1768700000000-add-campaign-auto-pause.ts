import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The circuit breaker of issue 12: `auto_pause` holds the campaign's setting ({window,
 * max_failure_ratio}; null: off) and `paused_reason` says why a paused campaign is paused (null: paused
 * through the API without a reason, or not paused). The breaker's read of a campaign's latest ended
 * calls gets an index (call_logs is the call-log module's, its read goes through that module).
 */
export class AddCampaignAutoPause1768700000000 implements MigrationInterface {
  name = 'AddCampaignAutoPause1768700000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(
      `ALTER TABLE campaigns ADD COLUMN auto_pause jsonb, ADD COLUMN paused_reason text`,
    );
    // The breaker reads a campaign's latest ended calls: this index gives them newest first.
    await q.query(
      `CREATE INDEX call_logs_campaign_ended_idx ON call_logs (campaign_id, ended_at DESC, id DESC)
        WHERE ended_at IS NOT NULL`,
    );
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP INDEX call_logs_campaign_ended_idx`);
    await q.query(`ALTER TABLE campaigns DROP COLUMN auto_pause, DROP COLUMN paused_reason`);
  }
}
