import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * People's TOTP secrets are sealed under SECRETS_KEY as provider credentials are: `totp_secret`
 * holds the ciphertext and this column the id of the key that sealed it. A secret stored before
 * (no key id) is the plain base32 and keeps working; it is sealed when the person sets up a new one.
 */
export class SealTotpSecrets1769900000001 implements MigrationInterface {
  name = 'SealTotpSecrets1769900000001';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE users ADD COLUMN totp_secret_key_id text`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE users DROP COLUMN totp_secret_key_id`);
  }
}
