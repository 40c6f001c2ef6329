import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Per-organization connections to voice providers (owned by the provider-connection module).
 * Credentials are stored only sealed (AES-256-GCM, with the id of the key that sealed them) and as a
 * masked copy for display; settings are not secret.
 */
export class CreateProviderConnections1767800000000 implements MigrationInterface {
  name = 'CreateProviderConnections1767800000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE provider_connections (
        id uuid PRIMARY KEY,
        organization_id uuid NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
        type text NOT NULL,
        name text NOT NULL,
        credentials_ciphertext text,
        credentials_key_id text,
        credentials_masked jsonb NOT NULL DEFAULT '{}',
        settings jsonb NOT NULL DEFAULT '{}',
        is_default boolean NOT NULL DEFAULT false,
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now(),
        CONSTRAINT provider_connections_sealed_with_key
          CHECK ((credentials_ciphertext IS NULL) = (credentials_key_id IS NULL))
      )`);
    // Listing in creation order; names tell an organization's connections apart.
    await q.query(
      `CREATE UNIQUE INDEX provider_connections_org_name_key ON provider_connections (organization_id, name)`,
    );
    await q.query(
      `CREATE INDEX provider_connections_org_created_idx ON provider_connections (organization_id, created_at, id)`,
    );
    // At most one default per organization, whatever the race between two requests.
    await q.query(
      `CREATE UNIQUE INDEX provider_connections_one_default_key ON provider_connections (organization_id) WHERE is_default`,
    );
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE provider_connections`);
  }
}
