import { Tx } from '../../../../common/persistence/unit-of-work.js';

/**
 * `target.call_finished` (DECISIONS: Webhook notifications): after every call attempt ends, and when a
 * target ends without a call (blacklisted). No personal data: receivers read the target via the API.
 */
export interface CallFinishedEvent {
  organizationId: string;
  campaignId: string;
  targetId: string;
  /** null when the target ended without a call. */
  callLogId: number | null;
  attempt: number;
  maxAttempts: number;
  /** When the next attempt is scheduled, or null when no retry is queued. */
  nextAttemptScheduled: Date | null;
  status: string;
  resolution: string | null;
  category: string | null;
  subcategory: string | null;
}

/**
 * Records the event in the transactional outbox, in the same transaction as the state change that
 * caused it. Nothing is sent from inside the transaction; the webhook module delivers it afterwards.
 */
export abstract class CallFinishedOutbox {
  /** Many events in a few statements, whatever their number (e.g. every target of a cancel). */
  abstract recordAll(tx: Tx, events: CallFinishedEvent[]): Promise<void>;

  record(tx: Tx, event: CallFinishedEvent): Promise<void> {
    return this.recordAll(tx, [event]);
  }
}
