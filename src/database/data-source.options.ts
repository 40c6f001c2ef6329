import { join } from 'path';
import type { Pool } from 'pg';
import { DataSource, DataSourceOptions } from 'typeorm';

/** While the database is away, a query fails (503) after this long instead of waiting for it. */
export const CONNECT_TIMEOUT_MS = 5_000;

/** Entities and migrations are found by file name, so a new module needs no central list. */
export function dataSourceOptions(url: string, poolSize = 10): DataSourceOptions {
  return {
    type: 'postgres',
    url,
    entities: [join(__dirname, '..', 'modules', '**', '*.orm-entity.{js,ts}')],
    migrations: [join(__dirname, 'migrations', '*.{js,ts}')],
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
