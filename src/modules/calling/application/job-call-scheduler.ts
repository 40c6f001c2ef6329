import { Injectable } from '@nestjs/common';
import { JobQueue } from '../../../common/jobs/job-queue';
import { Tx } from '../../../common/persistence/unit-of-work';
import { CallScheduler, ScheduledCall } from '../../target/application/ports/call-scheduler';
import { DISPATCH_QUEUE, DispatchJob } from './dispatch-job';

/**
 * One durable dispatch job per scheduled target, committed with the transaction that made it
 * `Scheduled`: a rolled-back trigger never leaves a job behind, and a committed one always has a job.
 */
@Injectable()
export class JobCallScheduler extends CallScheduler {
  constructor(private readonly jobs: JobQueue) {
    super();
  }

  async scheduleCalls(tx: Tx, calls: ScheduledCall[]): Promise<void> {
    if (calls.length === 0) return;
    await this.jobs.enqueue(
      tx,
      calls.map((c) => ({
        queue: DISPATCH_QUEUE,
        data: {
          targetId: c.targetId,
          campaignId: c.campaignId,
          scheduledFor: c.at.toISOString(),
        } satisfies DispatchJob,
        startAfter: c.at,
      })),
    );
  }
}
