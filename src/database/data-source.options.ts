import type { Pool } from 'pg';
import { DataSource, DataSourceOptions } from 'typeorm';
import { MIGRATIONS } from './migrations/index.js';

/** While the database is away, a query fails (503) after this long instead of waiting for it. */
export const CONNECT_TIMEOUT_MS = 5_000;

/** No ORM entities: every query is hand-written SQL. Migrations are listed in migrations/index.ts. */
export function dataSourceOptions(url: string, poolSize = 10): DataSourceOptions {
  return {
    type: 'postgres',
    url,
    entities: [],
    migrations: MIGRATIONS,
    migrationsTableName: 'schema_migrations',
    migrationsTransactionMode: 'each',
    synchronize: false,
    logging: false,
    extra: { max: poolSize, connectionTimeoutMillis: CONNECT_TIMEOUT_MS },
  };
}

/** The `pg` pool under an initialized TypeORM data source. */
export function poolOf(dataSource: DataSource): Pool {
  return (dataSource.driver as unknown as { master: Pool }).master;
}
