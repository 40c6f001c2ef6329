import { Injectable, Logger, OnModuleDestroy, OnModuleInit } from '@nestjs/common';
import { Clock } from '../../../common/clock/clock';
import { JobQueue } from '../../../common/jobs/job-queue';
import { ExclusiveRunner } from '../../../common/persistence/exclusive-runner';
import { IMPORT_QUEUE, ImportJob, TargetImportService } from './target-import.service';

const RECOVERY_TASK = 'target-import-recovery-sweep';

/** How the import worker runs: `recoveryMs` without progress means the job was lost. */
export class TargetImportSettings {
  constructor(readonly options: { recoveryMs: number; runRecovery: boolean }) {}
}

/**
 * Registers the import job handler (every role registers; only worker roles fetch) and, in worker
 * roles, sweeps for imports whose job died with its worker: an import makes progress (and bumps
 * `updated_at`) every chunk, so one that has not moved for IMPORT_RECOVERY_SECONDS is queued again and
 * resumes after its last recorded chunk.
 */
@Injectable()
export class TargetImportWorker implements OnModuleInit, OnModuleDestroy {
  private readonly logger = new Logger('TargetImportWorker');
  private timer: NodeJS.Timeout | null = null;
  private sweeping: Promise<unknown> | null = null;

  constructor(
    private readonly jobs: JobQueue,
    private readonly imports: TargetImportService,
    private readonly settings: TargetImportSettings,
    private readonly exclusive: ExclusiveRunner,
    private readonly clock: Clock,
  ) {}

  async onModuleInit(): Promise<void> {
    await this.jobs.work<ImportJob>(
      IMPORT_QUEUE,
      async (job) => {
        await this.imports.process(job.importId);
      },
      { concurrency: 1, expireInSeconds: 900, retryLimit: 10, retryDelaySeconds: 5 },
    );
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
    const before = new Date(this.clock.now().getTime() - this.settings.options.recoveryMs);
    this.sweeping = this.exclusive
      .runExclusive(RECOVERY_TASK, () => this.imports.recoverStalled(before))
      .then((run) => {
        if (run.ran && run.result > 0)
          this.logger.warn({ count: run.result }, 're-queued CSV imports whose job was lost');
      })
      .catch((err) => this.logger.warn({ err }, 'import recovery sweep failed'))
      .finally(() => (this.sweeping = null));
  }
}
