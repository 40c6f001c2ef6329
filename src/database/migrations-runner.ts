import { DataSource } from 'typeorm';
import { SCHEMA_LOCK, withAdvisoryLock } from './advisory-lock';

/** Any number of processes may start at once; one applies the migrations, the others wait for it. */
export async function runMigrationsLocked(dataSource: DataSource): Promise<string[]> {
  return withAdvisoryLock(dataSource, SCHEMA_LOCK, async () => {
    const applied = await dataSource.runMigrations({ transaction: 'each' });
    return applied.map((m) => m.name);
  });
}
