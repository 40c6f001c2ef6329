import { Tx } from '../../../../common/persistence/unit-of-work';

export interface ScheduledCall {
  targetId: string;
  campaignId: string;
  /** When the dispatcher should look at the target. */
  at: Date;
}

/**
 * Asks the calling engine to dispatch targets that were just made `Scheduled`, inside the same
 * transaction. Implemented by the calling module (it enqueues one durable dispatch job per target).
 */
export abstract class CallScheduler {
  abstract scheduleCalls(tx: Tx, calls: ScheduledCall[]): Promise<void>;
}
