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

/** `campaign.paused`: the circuit breaker paused a campaign (docs/webhooks.md). */
export interface CampaignPausedEvent {
  organizationId: string;
  campaignId: string;
  /** In words, as the campaign's `paused_reason`. */
  reason: string;
  /** Share of the last `window` ended calls that ended TECHNICAL_FAILURE. */
  failureRatio: number;
  window: number;
  pausedAt: Date;
}

/** `import.finished`: a CSV import of targets ended (docs/webhooks.md). Counts only, no personal data. */
export interface ImportFinishedEvent {
  organizationId: string;
  campaignId: string;
  importId: string;
  /** `succeeded`, `rejected` (rows with errors: nothing added) or `failed`. */
  status: string;
  dryRun: boolean;
  rows: number;
  invalidRows: number;
  created: number;
  ignoredRows: number;
}

/**
 * `message.status` (an outbound text reached a final status) and `message.received` (a reply matched to
 * a target), docs/webhooks.md. No body, no numbers: receivers read the message through the API.
 */
export interface MessageEvent {
  type: 'message.status' | 'message.received';
  organizationId: string;
  campaignId: string;
  targetId: string;
  messageId: string;
  direction: 'outbound' | 'inbound';
  status: string;
  errorCode: string | null;
  at: Date;
}

/** One event to record, tagged with its kind. */
export type OutboxEvent =
  | { kind: 'call_finished'; event: CallFinishedEvent }
  | { kind: 'campaign_paused'; event: CampaignPausedEvent }
  | { kind: 'import_finished'; event: ImportFinishedEvent }
  | { kind: 'message'; event: MessageEvent };

/** The event of one kind. */
export type OutboxEventOf<K extends OutboxEvent['kind']> = Extract<
  OutboxEvent,
  { kind: K }
>['event'];

/**
 * The transactional outbox of the webhook notifications, every kind through one operation: the
 * events are recorded in the caller's transaction, with the state change that caused them, so both
 * commit (or roll back) together. Nothing is sent from inside the transaction; the webhook module
 * delivers them afterwards, and tells the in-process listeners once the transaction has committed.
 */
export abstract class Outbox {
  /** Many events in a few statements, whatever their number (e.g. every target of a cancel). */
  abstract record(tx: Tx, events: readonly OutboxEvent[]): Promise<void>;
}
