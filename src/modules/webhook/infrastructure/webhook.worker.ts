import { Injectable, Logger, OnModuleDestroy, OnModuleInit } from '@nestjs/common';
import { JobQueue } from '../../../common/jobs/job-queue.js';
import { ExclusiveRunner } from '../../../common/persistence/exclusive-runner.js';
import { DeliveryJob, DELIVERY_QUEUE } from '../application/webhook-outbox.js';
import { WebhookDeliveryService } from '../application/webhook-delivery.service.js';
import { WebhookSettings } from '../application/webhook-settings.js';

const RECOVERY_TASK = 'webhook-recovery-sweep';

/**
 * Registers the delivery job handler (every role registers; only worker roles fetch) and, in worker
 * roles, runs the recovery sweep that re-queues deliveries whose job was lost.
 */
@Injectable()
export class WebhookWorker implements OnModuleInit, OnModuleDestroy {
  private readonly logger = new Logger('WebhookWorker');
  private sweepTimer: NodeJS.Timeout | null = null;
  private sweeping: Promise<unknown> | null = null;

  constructor(
    private readonly jobs: JobQueue,
    private readonly service: WebhookDeliveryService,
    private readonly settings: WebhookSettings,
    private readonly exclusive: ExclusiveRunner,
  ) {}

  async onModuleInit(): Promise<void> {
    await this.jobs.work<DeliveryJob>(
      DELIVERY_QUEUE,
      async (job) => {
        await this.service.deliver(job.deliveryId);
      },
      {
        concurrency: this.settings.concurrency,
        // A job outliving its lease belongs to a dead worker: pg-boss runs it again, and the expired
        // lease lets the new run claim the delivery.
        expireInSeconds: Math.ceil(this.settings.leaseMs / 1000) + 5,
        retryLimit: 10,
        retryDelaySeconds: 2,
      },
    );
    if (this.settings.runRecovery) {
      this.sweepTimer = setInterval(() => this.sweep(), this.settings.recoveryMs);
      this.sweepTimer.unref();
    }
  }

  async onModuleDestroy(): Promise<void> {
    if (this.sweepTimer) clearInterval(this.sweepTimer);
    this.sweepTimer = null;
    await this.sweeping;
  }

  private sweep(): void {
    if (this.sweeping) return;
    // Every worker has the timer; one process in the deployment sweeps at a time.
    this.sweeping = this.exclusive
      .runExclusive(RECOVERY_TASK, () => this.service.recoverOverdue())
      .then((run) => {
        if (run.ran && run.result > 0)
          this.logger.warn(
            { count: run.result },
            're-queued webhook deliveries whose job was lost',
          );
      })
      .catch((err) => this.logger.warn({ err }, 'webhook recovery sweep failed'))
      .finally(() => (this.sweeping = null));
  }
}
