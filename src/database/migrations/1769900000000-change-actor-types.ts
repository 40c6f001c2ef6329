import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The do-not-call list and the calling-rules policy record who changed them. Their columns were
 * named for API keys, but a person signed in acts too: the columns become a generic actor (type, id,
 * name then). Existing rows name API keys, except those written by a person since people sign in
 * (their id is found among the users): those are backfilled as people.
 */
export class ChangeActorTypes1769900000000 implements MigrationInterface {
  name = 'ChangeActorTypes1769900000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE do_not_call_entries RENAME COLUMN api_key_id TO added_by_id`);
    await q.query(
      `ALTER TABLE do_not_call_entries RENAME COLUMN removed_by_api_key_id TO removed_by_id`,
    );
    await q.query(
      `ALTER TABLE compliance_policies RENAME COLUMN updated_by_key_id TO updated_by_id`,
    );
    await q.query(`
      ALTER TABLE do_not_call_entries
        ADD COLUMN added_by_type text, ADD COLUMN added_by_name text,
        ADD COLUMN removed_by_type text, ADD COLUMN removed_by_name text`);
    await q.query(
      `ALTER TABLE compliance_policies ADD COLUMN updated_by_type text, ADD COLUMN updated_by_name text`,
    );
    for (const [table, prefix] of [
      ['do_not_call_entries', 'added_by'],
      ['do_not_call_entries', 'removed_by'],
      ['compliance_policies', 'updated_by'],
    ]) {
      await q.query(`
        UPDATE ${table} t
           SET ${prefix}_type = CASE
                 WHEN NOT EXISTS (SELECT 1 FROM api_keys k WHERE k.id = t.${prefix}_id)
                  AND EXISTS (SELECT 1 FROM users u WHERE u.id = t.${prefix}_id) THEN 'user'
                 ELSE 'api_key' END,
               ${prefix}_name = COALESCE(
                 (SELECT k.name FROM api_keys k WHERE k.id = t.${prefix}_id),
                 (SELECT u.name FROM users u WHERE u.id = t.${prefix}_id),
                 'unknown')
         WHERE t.${prefix}_id IS NOT NULL`);
      await q.query(`
        ALTER TABLE ${table}
          ADD CONSTRAINT ${table}_${prefix}_actor_check CHECK (
            ${prefix}_type IN ('api_key', 'user')
            AND (${prefix}_id IS NULL) = (${prefix}_type IS NULL)
            AND (${prefix}_id IS NULL) = (${prefix}_name IS NULL))`);
    }
  }

  async down(q: QueryRunner): Promise<void> {
    for (const [table, prefix] of [
      ['do_not_call_entries', 'added_by'],
      ['do_not_call_entries', 'removed_by'],
      ['compliance_policies', 'updated_by'],
    ]) {
      await q.query(`ALTER TABLE ${table} DROP CONSTRAINT ${table}_${prefix}_actor_check`);
      await q.query(`ALTER TABLE ${table} DROP COLUMN ${prefix}_type, DROP COLUMN ${prefix}_name`);
    }
    await q.query(
      `ALTER TABLE compliance_policies RENAME COLUMN updated_by_id TO updated_by_key_id`,
    );
    await q.query(
      `ALTER TABLE do_not_call_entries RENAME COLUMN removed_by_id TO removed_by_api_key_id`,
    );
    await q.query(`ALTER TABLE do_not_call_entries RENAME COLUMN added_by_id TO api_key_id`);
  }
}
