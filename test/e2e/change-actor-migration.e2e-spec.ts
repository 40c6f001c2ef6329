import type { DataSource } from 'typeorm';
import { ChangeActorTypes1769900000000 } from '../../src/database/migrations/1769900000000-change-actor-types.js';
import { DatabaseBeforeMigration } from '../support/database-before-migration.js';

/**
 * Migration 1769900000000 on a database whose do-not-call list and policy were changed before the
 * columns named their actor's type: ids of keys become API keys, ids of people (a person signed in
 * wrote their id into the key columns) become people, each with their name.
 */
describe('migration 1769900000000 (change actor types) on existing rows', () => {
  let migration: DatabaseBeforeMigration;
  let db: DataSource;

  beforeAll(async () => {
    migration = await DatabaseBeforeMigration.create(ChangeActorTypes1769900000000);
    db = migration.db;
  });

  afterAll(async () => {
    await migration?.close();
  });

  it('backfills each actor as the API key or the person its id names, with the name', async () => {
    const [organization] = await db.query(
      `INSERT INTO organizations (name) VALUES ('before actor types') RETURNING id`,
    );
    const [key] = await db.query(
      `INSERT INTO api_keys (organization_id, name, key_prefix, key_hash)
       VALUES ($1, 'EHR integration', 'ccs_abc', 'hash-of-the-ehr-key') RETURNING id`,
      [organization.id],
    );
    const [person] = await db.query(
      `INSERT INTO users (organization_id, email, name, role, created_at, updated_at)
       VALUES ($1, 'dana@clinic.example', 'Dana Reyes', 'admin', now(), now()) RETURNING id`,
      [organization.id],
    );
    await db.query(
      `INSERT INTO do_not_call_entries (organization_id, phone_number, reason, source, api_key_id,
                                        created_at, removed_at, removal_reason, removed_by_api_key_id)
       VALUES ($1, '+15550400001', 'letter', 'api', $2, now(), now(), 'consent again', $3),
              ($1, '+15550400002', 'front desk', 'api', $3, now(), NULL, NULL, NULL)`,
      [organization.id, key.id, person.id],
    );
    await db.query(
      `INSERT INTO compliance_policies (organization_id, policy, updated_at, updated_by_key_id)
       VALUES ($1, '{}'::jsonb, now(), $2)`,
      [organization.id, person.id],
    );
    expect(await migration.migrateRest()).toContain('ChangeActorTypes1769900000000');
    db = migration.db;

    expect(
      await db.query(
        `SELECT phone_number, added_by_type, added_by_id, added_by_name,
                removed_by_type, removed_by_id, removed_by_name
           FROM do_not_call_entries WHERE organization_id = $1 ORDER BY phone_number`,
        [organization.id],
      ),
    ).toEqual([
      {
        phone_number: '+15550400001',
        added_by_type: 'api_key',
        added_by_id: key.id,
        added_by_name: 'EHR integration',
        removed_by_type: 'user',
        removed_by_id: person.id,
        removed_by_name: 'Dana Reyes',
      },
      {
        phone_number: '+15550400002',
        added_by_type: 'user',
        added_by_id: person.id,
        added_by_name: 'Dana Reyes',
        removed_by_type: null,
        removed_by_id: null,
        removed_by_name: null,
      },
    ]);
    expect(
      await db.query(
        `SELECT updated_by_type, updated_by_id, updated_by_name FROM compliance_policies
          WHERE organization_id = $1`,
        [organization.id],
      ),
    ).toEqual([
      { updated_by_type: 'user', updated_by_id: person.id, updated_by_name: 'Dana Reyes' },
    ]);
  });
});
