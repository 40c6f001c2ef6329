import { DataSource } from 'typeorm';
import { dataSourceOptions } from '../../src/database/data-source.options.js';
import { MIGRATIONS } from '../../src/database/migrations/index.js';
import { runMigrationsLocked } from '../../src/database/migrations-runner.js';
import { createTestDatabase, type TestDatabase } from './test-database.js';

/**
 * A test database migrated up to just before one migration, for a test that fills it with rows of
 * the old shape and then runs that migration (and the rest) over them, as an upgrade does.
 */
export class DatabaseBeforeMigration {
  private constructor(
    private readonly database: TestDatabase,
    /** The connection: before `migrateRest`, to the old schema; after, to the migrated one. */
    public db: DataSource,
  ) {}

  static async create(migration: (typeof MIGRATIONS)[number]): Promise<DatabaseBeforeMigration> {
    const database = await createTestDatabase({ empty: true });
    const before = MIGRATIONS.indexOf(migration);
    if (before <= 0) throw new Error(`${migration.name} is not among the migrations`);
    const db = new DataSource({
      ...dataSourceOptions(database.url, 2),
      migrations: MIGRATIONS.slice(0, before),
    });
    await db.initialize();
    await runMigrationsLocked(db);
    return new DatabaseBeforeMigration(database, db);
  }

  /** Runs every migration left, on a new connection as a deploy would; the names of those run. */
  async migrateRest(): Promise<string[]> {
    await this.db.destroy();
    this.db = new DataSource(dataSourceOptions(this.database.url, 2));
    await this.db.initialize();
    return runMigrationsLocked(this.db);
  }

  async close(): Promise<void> {
    await this.db.destroy();
    await this.database.drop();
  }
}
