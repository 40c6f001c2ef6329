import { DynamicModule, Global, Logger, Module, Provider } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { Clock, SystemClock } from '../common/clock/clock.js';
import { JobQueue } from '../common/jobs/job-queue.js';
import { ExclusiveRunner } from '../common/persistence/exclusive-runner.js';
import { UnitOfWork } from '../common/persistence/unit-of-work.js';
import { AppConfig } from '../config/app-config.js';
import { PgBossJobQueue } from '../jobs/pg-boss-job-queue.js';
import { AdvisoryLockExclusiveRunner } from './advisory-lock-exclusive-runner.js';
import { dataSourceOptions, poolOf } from './data-source.options.js';
import { guardPool } from './pool-guard.js';
import { enableStatementPreparation } from './sql.js';
import { runMigrationsLocked } from './migrations-runner.js';
import { TypeOrmUnitOfWork } from './typeorm-unit-of-work.js';

/** The core ports' adapters on the database: the root module binds them, unless others are chosen. */
export const DATABASE_ADAPTERS: Provider[] = [
  { provide: UnitOfWork, useClass: TypeOrmUnitOfWork },
  { provide: Clock, useClass: SystemClock },
  { provide: ExclusiveRunner, useClass: AdvisoryLockExclusiveRunner },
  { provide: JobQueue, useExisting: PgBossJobQueue },
];

/**
 * The database and what lives on it: TypeORM, the unit of work and the durable job queue. `url` is a
 * real PostgreSQL or the embedded PGlite server (started by `bootstrap` before the app).
 */
const poolLogger = new Logger('Database');
const schemaLogger = new Logger('Migrations');

@Global()
@Module({})
export class DatabaseModule {
  static forRoot(config: AppConfig, url: string): DynamicModule {
    return {
      module: DatabaseModule,
      imports: [
        TypeOrmModule.forRootAsync({
          useFactory: () => dataSourceOptions(url, config.get('DB_POOL_SIZE')),
          // Migrations run before any module starts, so no worker or bootstrap sees an old schema.
          dataSourceFactory: async (options) => {
            const dataSource = await new DataSource(options!).initialize();
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
