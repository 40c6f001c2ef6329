import { BeforeApplicationShutdown, Injectable, Logger, OnModuleInit } from '@nestjs/common';
import { DataSource } from 'typeorm';
import type { Pool } from 'pg';
import { PgBoss, type JobWithMetadata } from 'pg-boss';
import { JobHandler, JobQueue, JobRequest, WorkOptions } from '../common/jobs/job-queue.js';
import { Tx } from '../common/persistence/unit-of-work.js';
import { SCHEMA_LOCK, withAdvisoryLock } from '../database/advisory-lock-exclusive-runner.js';
import { isDatabaseUnavailable } from '../database/connection-errors.js';
import { CONNECT_TIMEOUT_MS } from '../database/data-source.options.js';
import { guardPool } from '../database/pool-guard.js';
import { sqlExecutor } from '../database/sql.js';
import { moveV10Jobs, parkV10Schema } from './pg-boss-v10-upgrade.js';

export interface PgBossOptions {
  url: string;
  /** Only processes whose role includes the worker fetch jobs; every process may enqueue. */
  runWorkers: boolean;
  concurrency: number;
  pollingIntervalSeconds: number;
  /** How often pg-boss fails expired (crashed) jobs so that they are retried. */
  maintenanceIntervalSeconds: number;
  /** How long a stop waits for running handlers before it hands their jobs back. */
  drainTimeoutMs: number;
}

export interface QueueBacklog {
  queue: string;
  /** Jobs ready to run (created or retry, due). */
  waiting: number;
  /** Age of the oldest of them, 0 when none waits. */
  oldestWaitingSeconds: number;
  active: number;
}

/** pg-boss's own schema in the service's database. */
const SCHEMA = 'pgboss';

/** After a failed fetch (the database is away), wait this long, doubling up to the cap. */
const FETCH_BACKOFF_MS = { first: 500, max: 10_000 };

/**
 * pg-boss 12 on the service's own database. Jobs are rows in the `pgboss` schema: enqueued inside the
 * caller's transaction, fetched with SKIP LOCKED by any number of worker processes, and retried when a
 * worker dies (an active job past its expiry goes back to the queue).
 *
 * We run our own fetch loops instead of `boss.work()`: each loop takes one job at a time, so a slow job
 * never holds back the others, and every database call of the loop is awaited, a failure logged and
 * retried while the database is away (the job it concerned then expires and runs again: handlers are
 * idempotent). The chaos suite (worker kills, connection drops) holds us to that behaviour.
 */
@Injectable()
export class PgBossJobQueue extends JobQueue implements OnModuleInit, BeforeApplicationShutdown {
  private readonly logger = new Logger('JobQueue');
  readonly boss: PgBoss;
  private readonly queues = new Map<string, Promise<void>>();
  private readonly loops: Promise<void>[] = [];
  /** Jobs whose handler is running here, by id. */
  private readonly held = new Map<string, string>();
  private readonly sleepers = new Set<() => void>();
  private started = false;
  private stopping = false;
  private stopped: Promise<void> | null = null;

  constructor(
    private readonly options: PgBossOptions,
    private readonly dataSource: DataSource,
  ) {
    super();
    this.boss = new PgBoss({
      connectionString: options.url,
      schema: SCHEMA,
      max: 4,
      // Passed on to pg's Pool: while the database is away a fetch fails fast instead of hanging.
      connectionTimeoutMillis: CONNECT_TIMEOUT_MS,
      // Failing expired jobs (so that they are retried) is pg-boss 12's per-queue monitoring, run from
      // its supervision loop: both on our interval.
      superviseIntervalSeconds: options.maintenanceIntervalSeconds,
      monitorIntervalSeconds: options.maintenanceIntervalSeconds,
      // Maintenance (failing expired jobs so they are retried, archiving) and pg-boss's cron clock
      // run where jobs run: an API-only process only enqueues, and starts faster without their
      // timers, queue and queries (docs/architecture.md, "Cold start"). We schedule nothing.
      supervise: options.runWorkers,
      schedule: options.runWorkers,
    });
    // pg-boss reports its pool's and its maintenance's errors here; unhandled, an 'error' event ends
    // the process. A database restart makes a burst of them: they are expected and recovered from.
    this.boss.on('error', (err: unknown) => {
      if (isDatabaseUnavailable(err)) this.logger.warn({ err }, 'job queue lost its database');
      else this.logger.error({ err }, 'pg-boss error');
    });
  }

  async onModuleInit(): Promise<void> {
    // pg-boss creates or migrates its schema in start(); one process at a time. A database whose jobs
    // pg-boss 10 kept is moved over first (pg-boss-v10-upgrade.ts).
    await withAdvisoryLock(this.dataSource, SCHEMA_LOCK, async () => {
      const upgrading = await parkV10Schema(this.dataSource, SCHEMA);
      await this.boss.start();
      if (upgrading) {
        const moved = await moveV10Jobs(this.dataSource, this.boss);
        this.logger.log({ jobs: moved }, 'moved the jobs pg-boss 10 kept into pg-boss 12');
      }
    });
    const pool = (this.boss.getDb() as unknown as { pool?: Pool }).pool;
    if (pool) guardPool(pool, (err) => this.logger.warn({ err }, 'job queue lost a connection'));
    this.started = true;
  }

  /** Stops fetching, lets running handlers finish within the drain timeout, then hands back the rest. */
  beforeApplicationShutdown(): Promise<void> {
    this.stopped ??= this.stop();
    return this.stopped;
  }

  /** False once stopping, or when pg-boss cannot reach its database. */
  async isReady(): Promise<boolean> {
    if (!this.started || this.stopping) return false;
    try {
      await this.boss.getDb().executeSql('SELECT 1', []);
      return true;
    } catch {
      return false;
    }
  }

  /** Waiting and active jobs per queue, for the metrics. */
  async backlog(): Promise<QueueBacklog[]> {
    const { rows } = await this.boss.getDb().executeSql(
      // Every queue, those with nothing waiting too (a gauge at 0, not a missing series).
      `SELECT q.name AS queue,
              count(j.id) FILTER (WHERE j.state IN ('created', 'retry') AND j.start_after <= now())::int AS waiting,
              coalesce(extract(epoch FROM now() - min(j.created_on)
                FILTER (WHERE j.state IN ('created', 'retry') AND j.start_after <= now())), 0)::float
                AS "oldestWaitingSeconds",
              count(j.id) FILTER (WHERE j.state = 'active')::int AS active
         FROM pgboss.queue q
         LEFT JOIN pgboss.job j ON j.name = q.name AND j.state IN ('created', 'retry', 'active')
        GROUP BY q.name`,
      [],
    );
    return rows as QueueBacklog[];
  }

  private async stop(): Promise<void> {
    this.stopping = true;
    for (const wake of this.sleepers) wake();
    const drained = await settlesWithin(Promise.all(this.loops), this.options.drainTimeoutMs);
    if (!drained && this.held.size > 0) {
      this.logger.warn(
        { jobs: this.held.size },
        'stopping before running jobs finished: handing them back to the queue',
      );
      await this.release().catch((err) =>
        this.logger.warn({ err }, 'could not hand jobs back; they run again after they expire'),
      );
    }
    await this.boss.stop({ graceful: false, close: true }).catch((err: unknown) => {
      this.logger.warn({ err }, 'pg-boss did not stop cleanly');
    });
  }

  /** Fails the jobs still running here, so another worker retries them now instead of at expiry. */
  private async release(): Promise<void> {
    const idsByQueue = Map.groupBy(this.held.keys(), (id) => this.held.get(id)!);
    for (const [queue, ids] of idsByQueue) await this.boss.fail(queue, ids);
  }

  async enqueue(tx: Tx | null, jobs: JobRequest | JobRequest[]): Promise<void> {
    const list = Array.isArray(jobs) ? jobs : [jobs];
    if (list.length === 0) return;
    await Promise.all([...new Set(list.map((j) => j.queue))].map((q) => this.ensureQueue(q)));
    const sql = sqlExecutor(this.dataSource, tx);
    // pg-boss's own statements: it reads their rows itself.
    const db = {
      executeSql: (text: string, values: unknown[]) =>
        sql.query<Record<string, unknown>>(text, values),
    };
    if (list.length === 1) {
      const [job] = list;
      await this.boss.send(job.queue, job.data as object, {
        db,
        startAfter: job.startAfter,
        singletonKey: job.singletonKey,
      });
      return;
    }
    // One INSERT for the whole batch (set-based, like the domain writes that cause it).
    // pg-boss inserts one queue's jobs per call: one INSERT per queue in the batch.
    const byQueue = Map.groupBy(list, (job) => job.queue);
    for (const [queue, jobsOfQueue] of byQueue) {
      await this.boss.insert(
        queue,
        jobsOfQueue.map((job) => ({
          data: job.data as object,
          startAfter: job.startAfter,
          singletonKey: job.singletonKey,
        })),
        { db },
      );
    }
  }

  async work<T>(queue: string, handler: JobHandler<T>, options: WorkOptions = {}): Promise<void> {
    await this.ensureQueue(queue, options);
    if (!this.options.runWorkers) return;
    const concurrency = options.concurrency ?? this.options.concurrency;
    // Independent single-job loops, so one slow job never holds back the others; a loop that found a
    // job fetches again at once instead of waiting out the polling interval.
    for (let i = 0; i < concurrency; i++) this.loops.push(this.loop(queue, handler));
  }

  private async loop<T>(queue: string, handler: JobHandler<T>): Promise<void> {
    let failures = 0;
    while (!this.stopping) {
      let job: JobWithMetadata<T> | undefined;
      try {
        [job] = await this.boss.fetch<T>(queue, { batchSize: 1, includeMetadata: true });
        if (failures > 0) this.logger.log({ queue }, 'job queue reachable again');
        failures = 0;
      } catch (err) {
        if (failures++ === 0) this.logger.warn({ err, queue }, 'cannot fetch jobs; retrying');
        await this.sleep(Math.min(FETCH_BACKOFF_MS.first * 2 ** failures, FETCH_BACKOFF_MS.max));
        continue;
      }
      if (job) await this.run(queue, job, handler);
      else await this.sleep(this.options.pollingIntervalSeconds * 1000);
    }
  }

  private async run<T>(
    queue: string,
    job: JobWithMetadata<T>,
    handler: JobHandler<T>,
  ): Promise<void> {
    this.held.set(job.id, queue);
    try {
      let failure: unknown = null;
      try {
        await handler(job.data, { id: job.id, retryCount: job.retryCount ?? 0 });
      } catch (err) {
        failure = err;
        this.logger.warn({ err, queue, jobId: job.id }, 'job failed; it will be retried');
      }
      try {
        if (failure === null) await this.boss.complete(queue, job.id);
        else await this.boss.fail(queue, job.id, { message: describe(failure) });
      } catch (err) {
        this.logger.warn(
          { err, queue, jobId: job.id },
          'could not record the end of a job; it runs again once it expires',
        );
      }
    } finally {
      this.held.delete(job.id);
    }
  }

  /** Waits `ms`, or less when the queue stops. */
  private sleep(ms: number): Promise<void> {
    if (this.stopping) return Promise.resolve();
    return new Promise((resolve) => {
      const wake = () => {
        clearTimeout(timer);
        this.sleepers.delete(wake);
        resolve();
      };
      const timer = setTimeout(wake, ms);
      this.sleepers.add(wake);
    });
  }

  private ensureQueue(name: string, options: WorkOptions = {}): Promise<void> {
    let created = this.queues.get(name);
    if (!created) {
      const settings = {
        name,
        retryLimit: options.retryLimit ?? 5,
        retryDelay: options.retryDelaySeconds ?? 5,
        retryBackoff: true,
        expireInSeconds: options.expireInSeconds ?? 15 * 60,
      };
      // Creating a queue adds a partition to pg-boss's job table; two processes doing it at once
      // deadlock, so queue creation takes the schema lock like the migrations.
      created = withAdvisoryLock(this.dataSource, SCHEMA_LOCK, async () => {
        if (!(await this.boss.getQueue(name))) await this.boss.createQueue(name, settings);
        else if (Object.keys(options).length > 0) await this.boss.updateQueue(name, settings);
      });
      created.catch(() => this.queues.delete(name));
      this.queues.set(name, created);
    }
    return created;
  }
}

function describe(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}

/** True when `promise` settled within `ms`. */
async function settlesWithin(promise: Promise<unknown>, ms: number): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const timedOut = new Promise<false>((resolve) => (timer = setTimeout(() => resolve(false), ms)));
  try {
    return await Promise.race([promise.then(() => true as const), timedOut]);
  } finally {
    clearTimeout(timer);
  }
}
