import { DataSource } from 'typeorm';
import { PgBossJobQueue } from '../../src/jobs/pg-boss-job-queue.js';

/**
 * Creates pg-boss's schema in a migrated database as the service's first start does (the job queue's
 * own start, an API role's: no queue, no worker), so that the test databases copied from it hold it
 * too. pg-boss makes its schema when it starts, not through our migrations: without this every test
 * app made it again, some hundred statements, 2-4 s of each app's start on PGlite at a load of 10
 * (docs/benchmarks.md, "Test suite"). A test of what the first start does to a database without it
 * asks for one (`createTestDatabase({ withoutJobSchema: true })`).
 */
export async function installJobSchema(url: string, dataSource: DataSource): Promise<void> {
  const queue = new PgBossJobQueue(
    {
      url,
      runWorkers: false,
      concurrency: 1,
      pollingIntervalSeconds: 1,
      maintenanceIntervalSeconds: 60,
      drainTimeoutMs: 1_000,
    },
    dataSource,
  );
  await queue.onModuleInit();
  await queue.beforeApplicationShutdown();
}
