import { join } from 'path';
import { DataSourceOptions } from 'typeorm';

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
    extra: { max: poolSize },
  };
}
