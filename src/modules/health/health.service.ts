import { BeforeApplicationShutdown, Injectable } from '@nestjs/common';
import {
  HealthCheckResult,
  HealthCheckService,
  HealthIndicatorService,
  TypeOrmHealthIndicator,
} from '@nestjs/terminus';
import { PgBossJobQueue } from '../../jobs/pg-boss-job-queue.js';

const CHECK_TIMEOUT_MS = 2_000;

export type HealthOutcome =
  { ok: true; result: HealthCheckResult } | { ok: false; result: unknown };

/**
 * Liveness (the process runs: never depends on the database, or an outage would restart every
 * replica), readiness (database, job queue, not stopping) and the database check of the public
 * health route, through @nestjs/terminus.
 */
@Injectable()
export class HealthService implements BeforeApplicationShutdown {
  private stopping = false;

  constructor(
    private readonly health: HealthCheckService,
    private readonly typeorm: TypeOrmHealthIndicator,
    private readonly indicators: HealthIndicatorService,
    private readonly jobs: PgBossJobQueue,
  ) {}

  /** From the first moment of a graceful stop, readiness says no, so load balancers move away. */
  markStopping(): void {
    this.stopping = true;
  }

  beforeApplicationShutdown(): void {
    this.markStopping();
  }

  database(): Promise<HealthOutcome> {
    return this.run([() => this.typeorm.pingCheck('database', { timeout: CHECK_TIMEOUT_MS })]);
  }

  ready(): Promise<HealthOutcome> {
    return this.run([
      () => {
        const process = this.indicators.check('process');
        return this.stopping ? process.down({ message: 'stopping' }) : process.up();
      },
      () => this.typeorm.pingCheck('database', { timeout: CHECK_TIMEOUT_MS }),
      async () => {
        const jobQueue = this.indicators.check('job_queue');
        return (await withTimeout(this.jobs.isReady(), CHECK_TIMEOUT_MS))
          ? jobQueue.up()
          : jobQueue.down({ message: 'job queue not started, stopping or unreachable' });
      },
    ]);
  }

  private async run(checks: Parameters<HealthCheckService['check']>[0]): Promise<HealthOutcome> {
    try {
      return { ok: true, result: await this.health.check(checks) };
    } catch (err) {
      // terminus throws ServiceUnavailableException carrying the whole result.
      const response = (err as { getResponse?: () => unknown }).getResponse?.();
      return { ok: false, result: response ?? { status: 'error' } };
    }
  }
}

/** False when `check` has not answered within `ms`. */
async function withTimeout(check: Promise<boolean>, ms: number): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<false>((resolve) => (timer = setTimeout(() => resolve(false), ms)));
  try {
    return await Promise.race([check, late]);
  } finally {
    clearTimeout(timer);
  }
}
