import {
  Injectable,
  Logger,
  OnApplicationBootstrap,
  OnModuleDestroy,
  OnModuleInit,
} from '@nestjs/common';
import { JobQueue } from '../../../common/jobs/job-queue';
import { AppConfig } from '../../../config/app-config';
import { CallingSettings } from '../application/calling-settings';
import { DISPATCH_QUEUE, DispatchJob } from '../application/dispatch-job';
import { DispatchService } from '../application/dispatch.service';

/**
 * Registers the dispatch handler (every role: the queue only fetches where the role includes the
 * worker) and, in worker processes, runs the recovery sweep on a timer.
 */
@Injectable()
export class CallingWorker implements OnModuleInit, OnApplicationBootstrap, OnModuleDestroy {
  private readonly logger = new Logger('CallingWorker');
  private timer: NodeJS.Timeout | null = null;
  private sweeping: Promise<unknown> | null = null;

  constructor(
    private readonly jobs: JobQueue,
    private readonly dispatcher: DispatchService,
    private readonly settings: CallingSettings,
    private readonly config: AppConfig,
  ) {}

  async onModuleInit(): Promise<void> {
    await this.jobs.work<DispatchJob>(
      DISPATCH_QUEUE,
      async (job) => {
        await this.dispatcher.dispatch(
          job.targetId,
          job.scheduledFor ? new Date(job.scheduledFor) : null,
        );
      },
      {
        concurrency: this.config.get('WORKER_CONCURRENCY'),
        // A job outliving this is run again; the handler then finds the call in flight and leaves it.
        expireInSeconds: Math.max(60, this.config.get('STALE_CALL_MINUTES') * 60 + 60),
        retryLimit: 10,
        retryDelaySeconds: 2,
      },
    );
    if (this.config.get('ROLE') === 'api') return;
    this.timer = setInterval(() => this.sweep(), this.settings.sweepIntervalSeconds * 1000);
    this.timer.unref();
  }

  /**
   * A supervisor that spawned this process with an IPC channel and `CALLING_WORKER_READY_IPC=1` (the
   * tests' worker processes, a process manager) is told when dispatching has started. Opt-in: other
   * IPC parents (e.g. Jest's workers) must not receive messages they do not expect.
   */
  onApplicationBootstrap(): void {
    if (this.config.get('ROLE') === 'api' || !process.send) return;
    if (process.env.CALLING_WORKER_READY_IPC === '1')
      process.send({ type: 'calling-worker-ready' });
  }

  /** Before pg-boss and the database stop: no new sweep starts, and a running one finishes. */
  async onModuleDestroy(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    await this.sweeping;
  }

  private sweep(): void {
    if (this.sweeping) return;
    this.sweeping = this.dispatcher
      .sweep()
      .then((r) => {
        if (r.recovered || r.rescued) this.logger.log(r, 'recovered stale calls');
      })
      .catch((err) => this.logger.warn({ err }, 'recovery sweep failed'))
      .finally(() => (this.sweeping = null));
  }
}
