import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * A campaign names the provider connection that places its calls (null: the organization's default,
 * else the process-wide CALL_PROVIDER). A connection a campaign names cannot be deleted (409): its
 * calls would otherwise move silently to another provider.
 */
export class AddCampaignProviderConnection1767800000001 implements MigrationInterface {
  name = 'AddCampaignProviderConnection1767800000001';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      ALTER TABLE campaigns
        ADD COLUMN provider_connection_id uuid
          CONSTRAINT campaigns_provider_connection_fkey
          REFERENCES provider_connections(id)`);
    // The delete check above looks campaigns up by connection.
    await q.query(
      `CREATE INDEX campaigns_provider_connection_idx ON campaigns (provider_connection_id) WHERE provider_connection_id IS NOT NULL`,
    );
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE campaigns DROP COLUMN provider_connection_id`);
  }
}
