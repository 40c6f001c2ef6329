import { Tx } from '../persistence/unit-of-work.js';

export interface JobRequest<T = unknown> {
  queue: string;
  data: T;
  /** Run no earlier than this. */
  startAfter?: Date;
  /** A job with the same key that is still queued is not enqueued again. */
  singletonKey?: string;
}

export interface WorkOptions {
  /** Jobs of this queue run at once in this process. */
  concurrency?: number;
  /** A job that runs longer is considered crashed and runs again (at least once delivery). */
  expireInSeconds?: number;
  retryLimit?: number;
  retryDelaySeconds?: number;
}

export type JobHandler<T = any> = (
  data: T,
  meta: { id: string; retryCount: number },
) => Promise<void>;

/**
 * Durable background work. `enqueue` with a transaction commits the job with it (a rolled-back state
 * change never leaves a job behind). Handlers must be safe to run twice: the domain tables are the
 * truth, a job only says what to look at next.
 */
export abstract class JobQueue {
  abstract enqueue(tx: Tx | null, jobs: JobRequest | JobRequest[]): Promise<void>;
  /** Registers a handler; it runs only in processes whose role includes the worker. */
  abstract work<T>(queue: string, handler: JobHandler<T>, options?: WorkOptions): Promise<void>;
}
