import { BeforeApplicationShutdown, Injectable, Logger, OnModuleInit } from '@nestjs/common';
import { DataSource } from 'typeorm';
import PgBoss from 'pg-boss';
import { JobHandler, JobQueue, JobRequest, WorkOptions } from '../common/jobs/job-queue';
import { Tx } from '../common/persistence/unit-of-work';
import { sqlExecutor } from '../database/typeorm-unit-of-work';

export interface PgBossOptions {
  url: string;
  /** Only processes whose role includes the worker fetch jobs; every process may enqueue. */
  runWorkers: boolean;
  concurrency: number;
  pollingIntervalSeconds: number;
  /** How often pg-boss fails expired (crashed) jobs so that they are retried. */
  maintenanceIntervalSeconds: number;
}

/**
 * pg-boss on the service's own database. Jobs are rows in the `pgboss` schema: enqueued inside the
 * caller's transaction, fetched with SKIP LOCKED by any number of worker processes, and retried when a
 * worker dies (an active job past its expiry goes back to the queue).
 */
@Injectable()
export class PgBossJobQueue extends JobQueue implements OnModuleInit, BeforeApplicationShutdown {
  private readonly logger = new Logger('JobQueue');
  readonly boss: PgBoss;
  private readonly queues = new Map<string, Promise<void>>();
  private stopped = false;

  constructor(
    private readonly options: PgBossOptions,
    private readonly dataSource: DataSource,
  ) {
    super();
    this.boss = new PgBoss({
      connectionString: options.url,
      schema: 'pgboss',
      max: 4,
      maintenanceIntervalSeconds: options.maintenanceIntervalSeconds,
    });
    this.boss.on('error', (err) => this.logger.error({ err }, 'pg-boss error'));
  }

  async onModuleInit(): Promise<void> {
    await this.boss.start();
  }

  async beforeApplicationShutdown(): Promise<void> {
    if (this.stopped) return;
    this.stopped = true;
    // Let running handlers finish; their jobs would otherwise wait for expiry to be retried.
    await this.boss.stop({ graceful: true, wait: true, timeout: 10_000 });
  }

  async enqueue(tx: Tx | null, jobs: JobRequest | JobRequest[]): Promise<void> {
    const list = Array.isArray(jobs) ? jobs : [jobs];
    if (list.length === 0) return;
    await Promise.all([...new Set(list.map((j) => j.queue))].map((q) => this.ensureQueue(q)));
    const sql = sqlExecutor(this.dataSource, tx);
    const db = { executeSql: (text: string, values: unknown[]) => sql.query(text, values) };
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
    await this.boss.insert(
      list.map((job) => ({
        name: job.queue,
        data: job.data as object,
        startAfter: job.startAfter,
        singletonKey: job.singletonKey,
      })),
      { db },
    );
  }

  async work<T>(queue: string, handler: JobHandler<T>, options: WorkOptions = {}): Promise<void> {
    await this.ensureQueue(queue, options);
    if (!this.options.runWorkers) return;
    const concurrency = options.concurrency ?? this.options.concurrency;
    // Independent single-job loops, so one slow job never holds back the others; a loop that found a
    // job polls again at once instead of waiting out the polling interval.
    for (let i = 0; i < concurrency; i++) {
      let workerId = '';
      workerId = await this.boss.work<T>(
        queue,
        { batchSize: 1, pollingIntervalSeconds: this.options.pollingIntervalSeconds },
        async ([job]) => {
          try {
            await handler(job.data, { id: job.id, retryCount: (job as any).retryCount ?? 0 });
          } catch (err) {
            this.logger.warn({ err, queue, jobId: job.id }, 'job failed; it will be retried');
            throw err;
          } finally {
            if (!this.stopped) this.boss.notifyWorker(workerId);
          }
        },
      );
    }
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
      created = (async () => {
        if (await this.boss.getQueue(name)) {
          if (Object.keys(options).length > 0) await this.boss.updateQueue(name, settings);
          return;
        }
        try {
          await this.boss.createQueue(name, settings);
        } catch (err) {
          // Another process created it between our check and our insert.
          if (!(await this.boss.getQueue(name))) throw err;
        }
      })();
      created.catch(() => this.queues.delete(name));
      this.queues.set(name, created);
    }
    return created;
  }
}
