import PgBossV10 from 'pg-boss-v10';
import { DataSource } from 'typeorm';
import { dataSourceOptions } from '../../src/database/data-source.options.js';
import { PgBossJobQueue } from '../../src/jobs/pg-boss-job-queue.js';
import { createTestDatabase, TestDatabase, withClient } from '../support/test-database.js';
import { waitFor } from '../support/test-app.js';

/**
 * A database whose jobs pg-boss 10 kept (the version the service ran before pg-boss 12) is upgraded in
 * place when the service starts: the jobs that had not ended run, those that had are not run again, a
 * job not yet due keeps its start time and singleton key, and the old schema is gone.
 */
describe('pg-boss 10 -> 12 upgrade in place', () => {
  const QUEUE = 'upgrade-probe';
  let database: TestDatabase;
  let dataSource: DataSource;
  const queues: PgBossJobQueue[] = [];

  beforeAll(async () => {
    // As before the service's first start on pg-boss 12: the schema pg-boss 10 makes, not 12's.
    database = await createTestDatabase({ withoutJobSchema: true });
    dataSource = await new DataSource(dataSourceOptions(database.url, 4)).initialize();
  });

  afterAll(async () => {
    for (const queue of queues) await queue.beforeApplicationShutdown();
    await dataSource?.destroy();
    await database?.drop();
  });

  function jobQueue(): PgBossJobQueue {
    const queue = new PgBossJobQueue(
      {
        url: database.url,
        runWorkers: true,
        concurrency: 2,
        pollingIntervalSeconds: 0.5,
        maintenanceIntervalSeconds: 30,
        drainTimeoutMs: 5_000,
      },
      dataSource,
    );
    queues.push(queue);
    return queue;
  }

  it('moves the unfinished jobs of a pg-boss 10 schema and runs them', async () => {
    // What the service's pg-boss 10 left: a queue with its settings, and jobs in every state.
    const old = new PgBossV10({
      connectionString: database.url,
      schema: 'pgboss',
      supervise: false,
    });
    await old.start();
    await old.createQueue(QUEUE, {
      name: QUEUE,
      retryLimit: 5,
      retryDelay: 5,
      retryBackoff: true,
      expireInSeconds: 900,
    });
    // Three jobs that had a worker: one completed, one failed (back to `retry`, due after its retry
    // delay), one still active when its worker stopped for the upgrade.
    const activeId = await old.send(QUEUE, { n: 3 });
    const failingId = await old.send(QUEUE, { n: 4 });
    const doneId = await old.send(QUEUE, { n: 5 });
    const fetched = await old.fetch(QUEUE, { batchSize: 10 });
    expect(fetched.map((j) => j.id).sort()).toEqual([activeId, failingId, doneId].sort());
    await old.complete(QUEUE, doneId!);
    await old.fail(QUEUE, failingId!, { message: 'boom' });
    // Three still queued: two due (one with a singleton key), one due in an hour.
    const created = await old.send(QUEUE, { n: 1 });
    const keyed = await old.send(QUEUE, { n: 2 }, { singletonKey: 'target-42' });
    const later = new Date(Date.now() + 3_600_000);
    const notYetDue = await old.send(QUEUE, { n: 6 }, { startAfter: later, singletonKey: 'later' });
    await old.stop({ graceful: false, wait: true });
    const before = await withClient(database.url, (c) =>
      c.query<{ id: string; state: string }>(`SELECT id, state::text FROM pgboss.job ORDER BY id`),
    );
    expect(Object.fromEntries(before.rows.map((r) => [r.id, r.state]))).toEqual({
      [created!]: 'created',
      [keyed!]: 'created',
      [activeId!]: 'active',
      [failingId!]: 'retry',
      [doneId!]: 'completed',
      [notYetDue!]: 'created',
    });

    // The service starts on pg-boss 12.
    const ran: { id: string; data: { n: number } }[] = [];
    const queue = jobQueue();
    await queue.onModuleInit();
    await queue.work<{ n: number }>(QUEUE, async (data, meta) => {
      ran.push({ id: meta.id, data });
    });
    // The failed job's retry waits out its retry delay (5 s, backoff with jitter) as it would have.
    await waitFor(
      async () => ran.length,
      (n) => n >= 4,
      30_000,
    );
    expect(ran.map((r) => r.id).sort()).toEqual([created, keyed, activeId, failingId].sort());
    expect(ran.map((r) => r.data.n).sort()).toEqual([1, 2, 3, 4]);

    const after = await withClient(database.url, async (c) => {
      const schemas = await c.query<{ name: string }>(
        `SELECT nspname AS name FROM pg_namespace WHERE nspname LIKE 'pgboss%' ORDER BY 1`,
      );
      const version = await c.query<{ version: number }>(`SELECT version FROM pgboss.version`);
      const pending = await c.query<{ id: string; singleton_key: string; start_after: Date }>(
        `SELECT id, singleton_key, start_after FROM pgboss.job
          WHERE name = $1 AND state = 'created'`,
        [QUEUE],
      );
      const settings = await c.query(
        `SELECT retry_limit, retry_delay, retry_backoff, expire_seconds FROM pgboss.queue WHERE name = $1`,
        [QUEUE],
      );
      return { schemas, version, pending, settings };
    });
    expect(after.schemas.rows).toEqual([{ name: 'pgboss' }]);
    expect(after.version.rows[0].version).toBeGreaterThanOrEqual(25);
    expect(after.pending.rows).toEqual([
      { id: notYetDue, singleton_key: 'later', start_after: later },
    ]);
    expect(after.settings.rows).toEqual([
      { retry_limit: 5, retry_delay: 5, retry_backoff: true, expire_seconds: 900 },
    ]);

    // A second start finds pg-boss 12's schema and moves nothing.
    await queue.beforeApplicationShutdown();
    const again = jobQueue();
    await again.onModuleInit();
    const states = await withClient(database.url, (c) =>
      c.query<{ state: string; n: number }>(
        `SELECT state::text, count(*)::int AS n FROM pgboss.job WHERE name = $1 GROUP BY 1 ORDER BY 1`,
        [QUEUE],
      ),
    );
    // The four that ran completed; the one not yet due waits. The job pg-boss 10 had completed was
    // not moved.
    expect(states.rows).toEqual([
      { state: 'completed', n: 4 },
      { state: 'created', n: 1 },
    ]);
  });
});
