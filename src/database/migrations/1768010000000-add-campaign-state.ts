import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Campaign control (issue 12): `state` is `active`, `paused` or `cancelled`; `state_changed_at` is
 * when it last changed. The dispatcher reads the state under the campaign's claim lock, so a pause or
 * cancel that returned is seen by every later claim.
 */
export class AddCampaignState1768010000000 implements MigrationInterface {
  name = 'AddCampaignState1768010000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      ALTER TABLE campaigns
        ADD COLUMN state text NOT NULL DEFAULT 'active'
          CONSTRAINT campaigns_state_check CHECK (state IN ('active', 'paused', 'cancelled')),
        ADD COLUMN state_changed_at timestamptz`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE campaigns DROP COLUMN state, DROP COLUMN state_changed_at`);
  }
}
