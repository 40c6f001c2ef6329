import { JobHandler, JobQueue, JobRequest, WorkOptions } from '../common/jobs/job-queue.js';
import { Tx } from '../common/persistence/unit-of-work.js';

/** Keeps enqueued jobs in a list; `handlers` holds what `work` registered, to run jobs by hand. */
export class RecordingJobQueue extends JobQueue {
  readonly jobs: JobRequest[] = [];
  readonly handlers = new Map<string, { handler: JobHandler; options?: WorkOptions }>();

  async enqueue(_tx: Tx | null, jobs: JobRequest | JobRequest[]): Promise<void> {
    this.jobs.push(...structuredClone(Array.isArray(jobs) ? jobs : [jobs]));
  }

  async work<T>(queue: string, handler: JobHandler<T>, options?: WorkOptions): Promise<void> {
    this.handlers.set(queue, { handler, options });
  }

  /** Removes and returns the jobs of a queue. */
  take(queue: string): JobRequest[] {
    const taken = this.jobs.filter((j) => j.queue === queue);
    this.jobs.splice(0, this.jobs.length, ...this.jobs.filter((j) => j.queue !== queue));
    return taken;
  }
}
