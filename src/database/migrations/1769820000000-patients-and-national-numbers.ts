import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Issue 44: a campaign may read its national numbers in a country of its own; targets are searched by
 * the patient's name (prefix of either name, case-insensitive) and by phone number; a CSV import may
 * skip its bad rows (`on_error`) and keeps the mapping of its columns and its first rows as stored
 * for its report.
 */
export class PatientsAndNationalNumbers1769820000000 implements MigrationInterface {
  name = 'PatientsAndNationalNumbers1769820000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE campaigns ADD COLUMN default_country text`);
    await q.query(`
      CREATE INDEX IF NOT EXISTS targets_campaign_last_name_idx
        ON targets (campaign_id, lower(patient->>'last_name') text_pattern_ops)
        WHERE patient->>'last_name' IS NOT NULL`);
    await q.query(`
      CREATE INDEX IF NOT EXISTS targets_campaign_first_name_idx
        ON targets (campaign_id, lower(patient->>'first_name') text_pattern_ops)
        WHERE patient->>'first_name' IS NOT NULL`);
    await q.query(
      `CREATE INDEX IF NOT EXISTS targets_campaign_phone_idx ON targets (campaign_id, phone_number)`,
    );
    await q.query(`
      ALTER TABLE target_imports
        ADD COLUMN skip_invalid boolean NOT NULL DEFAULT false,
        ADD COLUMN columns jsonb,
        ADD COLUMN preview jsonb`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(
      `ALTER TABLE target_imports DROP COLUMN preview, DROP COLUMN columns, DROP COLUMN skip_invalid`,
    );
    await q.query(`DROP INDEX targets_campaign_phone_idx`);
    await q.query(`DROP INDEX targets_campaign_first_name_idx`);
    await q.query(`DROP INDEX targets_campaign_last_name_idx`);
    await q.query(`ALTER TABLE campaigns DROP COLUMN default_country`);
  }
}
