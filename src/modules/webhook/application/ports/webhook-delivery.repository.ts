import type { Tx } from '../../../../common/persistence/unit-of-work.js';
import type {
  DeliveryAttempt,
  DeliveryStatus,
  DeliveryWithAttempts,
  WebhookDelivery,
} from '../../domain/webhook-delivery.js';

export interface NewWebhookEvent {
  id: string;
  organizationId: string;
  campaignId: string;
  /** null for events about something else than one target (`import.finished`). */
  targetId: string | null;
  type: string;
  payload: Record<string, unknown>;
  createdAt: Date;
}

/** A delivery a worker holds under a lease, with what it needs to send it. */
export interface ClaimedDelivery {
  id: string;
  eventId: string;
  leaseToken: string;
  /** Attempts in the current run (creation or last rerun), this one included. */
  runAttempts: number;
  /** The JSON body to send, exactly as the event was recorded. */
  body: string;
  /** The campaign's endpoint and secret as they are now (a fixed URL applies to a rerun). */
  url: string | null;
  secret: string;
}

/** An attempt as it is recorded, before it has its id. */
export type AttemptRecord = Omit<DeliveryAttempt, 'id'>;

export type AttemptResult =
  { status: 'delivered' } | { status: 'pending'; nextAttemptAt: Date } | { status: 'failed' };

export abstract class WebhookDeliveryRepository {
  /**
   * Writes the events and, for each whose campaign has a `webhook_url`, one `pending` delivery due at
   * its `createdAt`, in the caller's transaction, set-based (a campaign's cancel writes one per
   * target). Returns the ids of the deliveries created.
   */
  abstract recordEvents(tx: Tx, events: NewWebhookEvent[]): Promise<string[]>;

  /**
   * Takes the delivery for one attempt if it is `pending` and due, or `sending` with an expired lease
   * (its worker died): a single conditional UPDATE, so two workers never hold it at once.
   */
  abstract claim(
    deliveryId: string,
    now: Date,
    leaseUntil: Date,
    leaseToken: string,
  ): Promise<ClaimedDelivery | null>;

  /**
   * Records the attempt and, if the lease is still ours, moves the delivery on (`delivered`, `pending`
   * at `nextAttemptAt`, or `failed`). False when the lease was lost (the attempt is still recorded).
   * Atomic on its own; a transaction is needed only to enqueue the next attempt's job with it.
   */
  abstract completeAttempt(
    tx: Tx | null,
    deliveryId: string,
    leaseToken: string,
    attempt: AttemptRecord,
    result: AttemptResult,
  ): Promise<boolean>;

  /**
   * `failed` deliveries of the campaign whose event was created in [from, to] become `pending` and due
   * at `now`, with a fresh retry schedule; one conditional UPDATE, so each is re-queued once.
   */
  abstract requeueFailed(
    tx: Tx,
    organizationId: string,
    campaignId: string,
    from: Date,
    to: Date,
    now: Date,
  ): Promise<string[]>;

  /**
   * Unfinished deliveries due (or whose lease ended) before `before`: their job was probably lost.
   * Marks them due at `now`, so the next sweeps leave them alone for a while, and returns their ids.
   */
  abstract reviveOverdue(tx: Tx, before: Date, now: Date, limit: number): Promise<string[]>;

  abstract list(
    organizationId: string,
    campaignId: string,
    status: DeliveryStatus | null,
    page: { offset: number; limit: number },
  ): Promise<{ items: WebhookDelivery[]; total: number }>;

  abstract findById(
    organizationId: string,
    deliveryId: string,
  ): Promise<DeliveryWithAttempts | null>;
}
