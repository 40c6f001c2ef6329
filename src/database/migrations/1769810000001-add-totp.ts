import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * An optional second factor (TOTP) per person: the secret being set up or in use, since when it is
 * in use, and the last time step used (a code works once). An organization may require it.
 */
export class AddTotp1769810000001 implements MigrationInterface {
  name = 'AddTotp1769810000001';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      ALTER TABLE users
        ADD COLUMN totp_secret text,
        ADD COLUMN totp_enabled_at timestamptz,
        ADD COLUMN totp_last_step bigint`);
    await q.query(
      `ALTER TABLE organizations ADD COLUMN require_totp boolean NOT NULL DEFAULT false`,
    );
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE organizations DROP COLUMN require_totp`);
    await q.query(
      `ALTER TABLE users DROP COLUMN totp_last_step, DROP COLUMN totp_enabled_at, DROP COLUMN totp_secret`,
    );
  }
}
