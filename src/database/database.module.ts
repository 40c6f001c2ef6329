import { DynamicModule, Global, Logger, Module, Provider } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { DataSource, DataSourceOptions } from 'typeorm';
import { Clock, SystemClock } from '../common/clock/clock.js';
import { JobQueue } from '../common/jobs/job-queue.js';
import { ExclusiveRunner } from '../common/persistence/exclusive-runner.js';
import { UnitOfWork } from '../common/persistence/unit-of-work.js';
import { AesGcmSecretBox, secretsKeySource } from '../common/secrets/aes-gcm-secret-box.js';
import { SecretBox } from '../common/secrets/secret-box.js';
import { AppConfig, DatabaseTarget } from '../config/app-config.js';
import { PgBossJobQueue } from '../jobs/pg-boss-job-queue.js';
import { AdvisoryLockExclusiveRunner } from './advisory-lock-exclusive-runner.js';
import { dataSourceOptions, poolOf } from './data-source.options.js';
import { guardPool } from './pool-guard.js';
import { enableStatementPreparation } from './sql.js';
import { runMigrationsLocked } from './migrations-runner.js';
import { TypeOrmUnitOfWork } from './typeorm-unit-of-work.js';
import { EmbeddedPostgres } from './embedded-postgres.js';

/**
 * Secrets at rest (provider credentials, people's TOTP secrets) under SECRETS_KEY, one box for every
 * module: on the embedded database its generated key is kept beside the data directory.
 */
export const SECRET_BOX_ADAPTER: Provider = {
  provide: SecretBox,
  inject: [AppConfig],
  useFactory: (config: AppConfig) =>
    new AesGcmSecretBox(secretsKeySource(config.get('SECRETS_KEY'), config.get('database'))),
};

/** The core ports' adapters on the database: the root module binds them, unless others are chosen. */
export const DATABASE_ADAPTERS: Provider[] = [
  { provide: UnitOfWork, useClass: TypeOrmUnitOfWork },
  { provide: Clock, useClass: SystemClock },
  { provide: ExclusiveRunner, useClass: AdvisoryLockExclusiveRunner },
  { provide: JobQueue, useExisting: PgBossJobQueue },
  SECRET_BOX_ADAPTER,
];

const poolLogger = new Logger('Database');
const schemaLogger = new Logger('Migrations');

/**
 * The database and what lives on it: TypeORM, the unit of work and the durable job queue, on a real
 * PostgreSQL or on embedded PGlite. PGlite is started here, as the data source is built (before any
 * module starts), and stopped once the data source is closed (pg-boss has stopped before that:
 * `beforeApplicationShutdown`).
 */
@Global()
@Module({})
export class DatabaseModule {
  static forRoot(config: AppConfig, database: DatabaseTarget): DynamicModule {
    // Known once the data source is built: the job queue (built after it) connects to it too.
    let url = database.kind === 'postgres' ? database.url : '';
    return {
      module: DatabaseModule,
      imports: [
        TypeOrmModule.forRootAsync({
          useFactory: () => dataSourceOptions(url, config.get('DB_POOL_SIZE')),
          // Migrations run before any module starts, so no worker or bootstrap sees an old schema.
          // (Run again on each of TypeORM's retries: PGlite too is started afresh for each.)
          dataSourceFactory: async (options) => {
            const embedded =
              database.kind === 'pglite' ? await EmbeddedPostgres.start(database.dataDir) : null;
            if (embedded) url = embedded.url;
            const dataSource = new DataSource({ ...options!, url } as DataSourceOptions);
            if (embedded) stopWithDataSource(dataSource, embedded);
            try {
              await dataSource.initialize();
              guardPool(poolOf(dataSource), (err) =>
                poolLogger.warn({ err }, 'database connection lost; it is replaced on next use'),
              );
              if (config.get('MIGRATIONS_RUN')) {
                const applied = await runMigrationsLocked(dataSource);
                schemaLogger.log(
                  applied.length > 0
                    ? `migrations applied: ${applied.join(', ')}`
                    : `schema up to date: ${dataSource.migrations.length} migrations applied`,
                );
              } else {
                schemaLogger.log('MIGRATIONS_RUN=false: no migration run at start');
              }
              await enableStatementPreparation(dataSource);
              return dataSource;
            } catch (err) {
              // The app does not start, so nothing else would close the pool (and PGlite's port).
              if (dataSource.isInitialized) await dataSource.destroy();
              else await embedded?.stop();
              throw err;
            }
          },
        }),
      ],
      providers: [
        { provide: AppConfig, useValue: config },
        {
          provide: PgBossJobQueue,
          inject: [DataSource],
          useFactory: (dataSource: DataSource) =>
            new PgBossJobQueue(
              {
                url,
                runWorkers: config.get('ROLE') !== 'api',
                concurrency: config.get('WORKER_CONCURRENCY'),
                pollingIntervalSeconds: config.get('JOB_POLL_INTERVAL_SECONDS'),
                maintenanceIntervalSeconds: config.get('JOB_MAINTENANCE_INTERVAL_SECONDS'),
                // What is left of the shutdown budget closes the HTTP server and the pools.
                drainTimeoutMs: Math.max(1_000, config.get('SHUTDOWN_TIMEOUT') - 3_000),
              },
              dataSource,
            ),
        },
      ],
      exports: [AppConfig, PgBossJobQueue],
    };
  }
}

/** The embedded database lives as long as the data source on it: closing one stops the other. */
function stopWithDataSource(dataSource: DataSource, embedded: EmbeddedPostgres): void {
  const destroy = dataSource.destroy.bind(dataSource);
  dataSource.destroy = async () => {
    try {
      await destroy();
    } finally {
      await embedded.stop();
    }
  };
}
