import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * People who sign in (users), the one-time links that let them set a password (user_invitations),
 * their signed-in sessions (user_sessions), and failed sign-ins counted per account and per client
 * address (sign_in_failures). All four belong to the organization module.
 */
export class CreateUsersAndSessions1769810000000 implements MigrationInterface {
  name = 'CreateUsersAndSessions1769810000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE users (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        organization_id uuid NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
        email text NOT NULL,
        name text NOT NULL,
        role text NOT NULL CHECK (role IN ('admin', 'operator', 'viewer')),
        campaign_ids uuid[],
        password_hash text,
        created_at timestamptz NOT NULL,
        updated_at timestamptz NOT NULL,
        deactivated_at timestamptz
      )`);
    // People sign in with their email alone, so an address names one person across organizations.
    await q.query(`CREATE UNIQUE INDEX users_email_key ON users (lower(email))`);
    await q.query(`CREATE INDEX users_organization_idx ON users (organization_id, created_at, id)`);
    await q.query(`
      CREATE TABLE user_invitations (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        user_id uuid NOT NULL REFERENCES users(id) ON DELETE CASCADE,
        token_hash text NOT NULL UNIQUE,
        created_at timestamptz NOT NULL,
        expires_at timestamptz NOT NULL,
        used_at timestamptz
      )`);
    await q.query(`CREATE INDEX user_invitations_user_idx ON user_invitations (user_id)`);
    await q.query(`
      CREATE TABLE user_sessions (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        user_id uuid NOT NULL REFERENCES users(id) ON DELETE CASCADE,
        token_hash text NOT NULL UNIQUE,
        created_at timestamptz NOT NULL,
        last_seen_at timestamptz NOT NULL,
        ended_at timestamptz
      )`);
    await q.query(
      `CREATE INDEX user_sessions_user_idx ON user_sessions (user_id) WHERE ended_at IS NULL`,
    );
    await q.query(`
      CREATE TABLE sign_in_failures (
        subject text PRIMARY KEY,
        failures integer NOT NULL,
        window_started_at timestamptz NOT NULL,
        locked_until timestamptz
      )`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE sign_in_failures`);
    await q.query(`DROP TABLE user_sessions`);
    await q.query(`DROP TABLE user_invitations`);
    await q.query(`DROP TABLE users`);
  }
}
