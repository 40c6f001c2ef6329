import { TargetImportRun } from '../application/target-import-run.js';
import { Injectable, Logger, OnModuleDestroy, OnModuleInit } from '@nestjs/common';
import { Clock } from '../../../common/clock/clock.js';
import { JobQueue } from '../../../common/jobs/job-queue.js';
import { ExclusiveRunner } from '../../../common/persistence/exclusive-runner.js';
import {
  IMPORT_QUEUE,
  ImportJob,
  TargetImportService,
} from '../application/target-import.service.js';

const RECOVERY_TASK = 'target-import-recovery-sweep';

/**
 * How the import worker runs: `recoveryMs` without progress means the job was lost; `uploadStallMs`
 * without a row received means the upload died with the process reading it.
 */
export class TargetImportSettings {
  constructor(
    readonly options: { recoveryMs: number; uploadStallMs: number; runRecovery: boolean },
  ) {}
}

/**
 * Registers the import job handler (every role registers; only worker roles fetch) and, in worker
 * roles, sweeps for imports whose job died with its worker: an import makes progress (and bumps
 * `updated_at`) every chunk, so one that has not moved for IMPORT_RECOVERY_SECONDS is queued again and
 * resumes after its last recorded chunk. The same sweep ends `failed` the uploads still `receiving`
 * with no row staged for IMPORT_UPLOAD_STALL_SECONDS (the process reading them died).
 */
@Injectable()
export class TargetImportWorker implements OnModuleInit, OnModuleDestroy {
  private readonly logger = new Logger('TargetImportWorker');
  private timer: NodeJS.Timeout | null = null;
  private sweeping: Promise<unknown> | null = null;

  constructor(
    private readonly jobs: JobQueue,
    private readonly imports: TargetImportService,
    private readonly run: TargetImportRun,
    private readonly settings: TargetImportSettings,
    private readonly exclusive: ExclusiveRunner,
    private readonly clock: Clock,
  ) {}

  async onModuleInit(): Promise<void> {
    await this.jobs.work<ImportJob>(IMPORT_QUEUE, (job) => this.run.process(job.importId), {
      concurrency: 1,
      expireInSeconds: 900,
      retryLimit: 10,
      retryDelaySeconds: 5,
    });
    const { runRecovery, recoveryMs } = this.settings.options;
    if (runRecovery) {
      this.timer = setInterval(() => this.sweep(), Math.max(500, recoveryMs / 2));
      this.timer.unref();
    }
  }

  async onModuleDestroy(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    await this.sweeping;
  }

  private sweep(): void {
    if (this.sweeping) return;
    const now = this.clock.now().getTime();
    const { recoveryMs, uploadStallMs } = this.settings.options;
    this.sweeping = this.exclusive
      .runExclusive(RECOVERY_TASK, async () => ({
        requeued: await this.imports.recoverStalled(new Date(now - recoveryMs)),
        failed: await this.imports.failStalledUploads(new Date(now - uploadStallMs)),
      }))
      .then((run) => {
        if (!run.ran) return;
        const { requeued, failed } = run.result;
        if (requeued > 0)
          this.logger.warn({ count: requeued }, 're-queued CSV imports whose job was lost');
        if (failed > 0)
          this.logger.warn({ count: failed }, 'failed CSV uploads that stopped receiving');
      })
      .catch((err) => this.logger.warn({ err }, 'import recovery sweep failed'))
      .finally(() => (this.sweeping = null));
  }
}
