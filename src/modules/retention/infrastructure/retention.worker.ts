import { Injectable, Logger, OnModuleDestroy, OnModuleInit } from '@nestjs/common';
import { JobQueue } from '../../../common/jobs/job-queue.js';
import { RetentionPurge } from '../application/retention-purge.js';

export const RETENTION_QUEUE = 'retention-purge';
/** How often the purge is queued; a run is idempotent, so a late or doubled one only finds less. */
const EVERY_MS = 60 * 60 * 1000;

/**
 * The purge as a durable job: queued hourly (one job at a time deployment-wide, by its singleton
 * key), run by a worker process. A worker that dies mid-run lets its job expire; pg-boss runs it
 * again and the purge resumes the unfinished run record where its committed batches stopped.
 */
@Injectable()
export class RetentionWorker implements OnModuleInit, OnModuleDestroy {
  private readonly logger = new Logger('Retention');
  private timer: NodeJS.Timeout | null = null;

  constructor(
    private readonly jobs: JobQueue,
    private readonly purge: RetentionPurge,
  ) {}

  async onModuleInit(): Promise<void> {
    await this.jobs.work(
      RETENTION_QUEUE,
      async () => {
        const runs = await this.purge.purgeAll();
        if (runs > 0) this.logger.log({ runs }, 'retention purges ran');
      },
      { concurrency: 1, expireInSeconds: 3600, retryLimit: 5, retryDelaySeconds: 60 },
    );
    this.timer = setInterval(() => {
      this.jobs
        .enqueue(null, { queue: RETENTION_QUEUE, data: {}, singletonKey: RETENTION_QUEUE })
        .catch((err) => this.logger.warn({ err }, 'could not queue the retention purge'));
    }, EVERY_MS);
    this.timer.unref();
  }

  onModuleDestroy(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
  }
}
