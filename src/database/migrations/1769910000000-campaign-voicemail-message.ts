import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Issue 44: a campaign may leave a voicemail message of its own (set by its coordinators with the
 * campaign's settings); null keeps the provider connection's `voicemail_message`.
 */
export class CampaignVoicemailMessage1769910000000 implements MigrationInterface {
  name = 'CampaignVoicemailMessage1769910000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE campaigns ADD COLUMN voicemail_message text`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE campaigns DROP COLUMN voicemail_message`);
  }
}
