import { DataSource } from 'typeorm';
import { SCHEMA_LOCK, withAdvisoryLock } from './advisory-lock-exclusive-runner.js';

/** Any number of processes may start at once; one applies the migrations, the others wait for it. */
export async function runMigrationsLocked(dataSource: DataSource): Promise<string[]> {
  // Most starts find nothing to do: one statement says so, without the lock and TypeORM's own
  // checks (four round trips and a connection held for the lock, docs/architecture.md, "Cold
  // start"). Anything else (a pending migration, no table yet) takes the locked path as before.
  if (await allApplied(dataSource)) return [];
  return withAdvisoryLock(dataSource, SCHEMA_LOCK, async () => {
    const applied = await dataSource.runMigrations({ transaction: 'each' });
    return applied.map((m) => m.name);
  });
}

/** True when every migration of the source is recorded as applied (read without the lock). */
async function allApplied(dataSource: DataSource): Promise<boolean> {
  const table = dataSource.options.migrationsTableName ?? 'migrations';
  let rows: { name: string }[];
  try {
    rows = await dataSource.query<{ name: string }[]>(`SELECT name FROM ${table}`);
  } catch {
    // No migrations table yet (a new database), or any other failure: the full path decides.
    return false;
  }
  const applied = new Set(rows.map((r) => r.name));
  // The name TypeORM records: the migration's `name`, else its class name.
  return dataSource.migrations.every((m) => applied.has(m.name ?? m.constructor.name));
}
