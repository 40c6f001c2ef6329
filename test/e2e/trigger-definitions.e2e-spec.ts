import { readFileSync } from 'fs';
import { join } from 'path';
import { DataSource } from 'typeorm';
import { tableOwners } from '../../scripts/check-table-owners.js';
import { dataSourceOptions } from '../../src/database/data-source.options.js';
import { runMigrationsLocked } from '../../src/database/migrations-runner.js';
import { TRIGGER_DEFINITIONS } from '../../src/database/trigger-definitions.js';
import { createTestDatabase, TestDatabase } from '../support/test-database.js';

/**
 * The trigger texts (one per table, docs/architecture.md "Triggers") are what a migrated database
 * runs: running them again on it changes no definition, and it has no trigger or trigger function
 * they do not define.
 */
const ROOT = join(import.meta.dirname, '..', '..');
const TEXTS = Object.values(TRIGGER_DEFINITIONS).join('\n');
const named = (pattern: RegExp) => [...TEXTS.matchAll(pattern)].map((m) => m[1]).sort();

interface Definitions {
  triggers: { name: string; table: string; definition: string }[];
  functions: { name: string; definition: string }[];
}

async function definitions(db: DataSource): Promise<Definitions> {
  const triggers = await db.query(
    `SELECT t.tgname AS name, c.relname AS table, pg_get_triggerdef(t.oid) AS definition
       FROM pg_trigger t JOIN pg_class c ON c.oid = t.tgrelid
       JOIN pg_namespace n ON n.oid = c.relnamespace
      WHERE n.nspname = 'public' AND NOT t.tgisinternal
      ORDER BY t.tgname`,
  );
  const functions = await db.query(
    `SELECT p.proname AS name, pg_get_functiondef(p.oid) AS definition
       FROM pg_proc p JOIN pg_namespace n ON n.oid = p.pronamespace
      WHERE n.nspname = 'public' AND p.prokind = 'f'
      ORDER BY p.proname`,
  );
  return { triggers, functions };
}

describe('trigger definitions', () => {
  let database: TestDatabase;
  let db: DataSource;
  let migrated: Definitions;

  beforeAll(async () => {
    database = await createTestDatabase({ empty: true }); // migrated below, by the runner itself
    db = new DataSource(dataSourceOptions(database.url, 2));
    await db.initialize();
    await runMigrationsLocked(db);
    migrated = await definitions(db);
  });

  afterAll(async () => {
    await db?.destroy();
    await database?.drop();
  });

  it('a migrated database holds exactly the triggers the texts create', () => {
    expect(migrated.triggers.map((t) => t.name).sort()).toEqual(named(/^CREATE TRIGGER (\w+)/gm));
    expect([...new Set(migrated.triggers.map((t) => t.table))].sort()).toEqual(
      Object.keys(TRIGGER_DEFINITIONS).sort(),
    );
  });

  it('every function the texts define is installed, and every trigger function is theirs', async () => {
    const installed = migrated.functions.map((f) => f.name);
    expect(installed).toEqual(
      expect.arrayContaining(named(/^CREATE OR REPLACE FUNCTION (\w+)\(/gm)),
    );
    const triggerFunctions = await db.query(
      `SELECT p.proname AS name, p.proconfig AS config
         FROM pg_proc p JOIN pg_namespace n ON n.oid = p.pronamespace
        WHERE n.nspname = 'public' AND p.prorettype = 'trigger'::regtype
        ORDER BY p.proname`,
    );
    expect(triggerFunctions.map((f: { name: string }) => f.name)).toEqual(
      named(/^CREATE OR REPLACE FUNCTION (\w+)\(\) RETURNS trigger/gm),
    );
    // None is JIT-compiled (a kept plan's first row estimate made small runs pay for JIT).
    for (const f of triggerFunctions) expect(f.config).toEqual(['jit=off']);
  });

  it('running the texts on a migrated database changes no definition', async () => {
    for (const text of Object.values(TRIGGER_DEFINITIONS)) await db.query(text);
    expect(await definitions(db)).toEqual(migrated);
  });

  it('every table has an owner in docs/architecture.md, and every owned table exists', async () => {
    const tables = await db.query(
      `SELECT c.relname AS name FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
        WHERE n.nspname = 'public' AND c.relkind IN ('r', 'p') AND c.relname <> 'schema_migrations'
        ORDER BY c.relname`,
    );
    const owners = tableOwners(readFileSync(join(ROOT, 'docs', 'architecture.md'), 'utf8'));
    expect(tables.map((t: { name: string }) => t.name)).toEqual([...owners.keys()].sort());
  });
});
