import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The dispatcher reads the paused campaigns' ids before each search for due campaigns, to leave them
 * out (their due targets would otherwise take the places of other campaigns): a partial index holds
 * exactly those rows, so the read costs what the number of paused campaigns does.
 */
export class IndexPausedCampaigns1768300000001 implements MigrationInterface {
  name = 'IndexPausedCampaigns1768300000001';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`CREATE INDEX campaigns_paused_idx ON campaigns (id) WHERE state = 'paused'`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP INDEX campaigns_paused_idx`);
  }
}
