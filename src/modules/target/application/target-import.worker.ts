import { Injectable, OnModuleInit } from '@nestjs/common';
import { JobQueue } from '../../../common/jobs/job-queue';
import { IMPORT_QUEUE, ImportJob, TargetImportService } from './target-import.service';

/**
 * Registers the import job handler (every role registers; only worker roles fetch). A job that
 * outlives `expireInSeconds` belongs to a dead worker and runs again: the import resumes after its
 * last recorded chunk.
 */
@Injectable()
export class TargetImportWorker implements OnModuleInit {
  constructor(
    private readonly jobs: JobQueue,
    private readonly imports: TargetImportService,
  ) {}

  async onModuleInit(): Promise<void> {
    await this.jobs.work<ImportJob>(
      IMPORT_QUEUE,
      async (job) => {
        await this.imports.process(job.importId);
      },
      { concurrency: 1, expireInSeconds: 900, retryLimit: 10, retryDelaySeconds: 5 },
    );
  }
}
