import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Every API key has a role, may be limited to some campaigns and may expire. Keys made before roles
 * existed could do everything, so they become admin.
 */
export class ApiKeyRoles1769700000000 implements MigrationInterface {
  name = 'ApiKeyRoles1769700000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      ALTER TABLE api_keys
        ADD COLUMN role text NOT NULL DEFAULT 'admin'
          CHECK (role IN ('admin', 'operator', 'viewer', 'integration')),
        ADD COLUMN campaign_ids uuid[],
        ADD COLUMN expires_at timestamptz,
        ADD COLUMN created_by uuid REFERENCES api_keys(id) ON DELETE SET NULL`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`
      ALTER TABLE api_keys
        DROP COLUMN created_by, DROP COLUMN expires_at, DROP COLUMN campaign_ids, DROP COLUMN role`);
  }
}
