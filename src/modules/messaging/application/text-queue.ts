import type { JobRequest } from '../../../common/jobs/job-queue.js';

/** The job that sends one queued text (and sends it again after a hold). */
export const TEXT_QUEUE = 'text-send';

export interface TextJob {
  messageId: string;
}

/** The job that sends the text `messageId`. */
export const textJob = (messageId: string): JobRequest => ({
  queue: TEXT_QUEUE,
  data: { messageId } satisfies TextJob,
});
