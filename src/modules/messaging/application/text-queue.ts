/** The job that sends one queued text (and sends it again after a hold). */
export const TEXT_QUEUE = 'text-send';

export interface TextJob {
  messageId: string;
}
