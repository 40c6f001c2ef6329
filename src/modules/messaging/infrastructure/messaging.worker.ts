import { Injectable, OnModuleInit } from '@nestjs/common';
import { JobQueue } from '../../../common/jobs/job-queue.js';
import {
  MessagingService,
  MessagingSettings,
  TEXT_QUEUE,
  TextJob,
} from '../application/messaging.service.js';

/** Registers the text job handler (every role registers; only worker roles fetch). */
@Injectable()
export class MessagingWorker implements OnModuleInit {
  constructor(
    private readonly jobs: JobQueue,
    private readonly messaging: MessagingService,
    private readonly settings: MessagingSettings,
  ) {}

  async onModuleInit(): Promise<void> {
    await this.jobs.work<TextJob>(TEXT_QUEUE, (job) => this.messaging.send(job.messageId), {
      concurrency: this.settings.concurrency,
      // A sender that dies mid-send: the job runs again once the text's sending lease has passed.
      expireInSeconds: 120,
      retryLimit: 10,
      retryDelaySeconds: 5,
    });
  }
}
