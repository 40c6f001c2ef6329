/** A notification recorded about one target, as the target's timeline shows it. */
export interface TargetNotification {
  /** The webhook event id (also the `id` receivers see in the body). */
  eventId: string;
  /** `target.call_finished`, ... */
  type: string;
  createdAt: Date;
  /** `created_at` in microseconds since the epoch (the column's precision). */
  createdMicros: number;
  /** Orders notifications of the same microsecond (byte order): `n:<event id>`. */
  sortKey: string;
  /** The delivery's status (`pending`, `sending`, `delivered`, `failed`); null: no webhook_url. */
  deliveryStatus: string | null;
  deliveryAttempts: number;
}

/**
 * The notifications recorded about a target, newest first (the webhook module owns them; the target
 * module's timeline merges them with its own events when it is read).
 */
export abstract class TargetNotifications {
  /** At most `limit`, strictly before (`beforeMicros`, `beforeKey`) in (created, key) order. */
  abstract listForTarget(
    organizationId: string,
    targetId: string,
    before: { atMicros: number; key: string } | null,
    limit: number,
  ): Promise<TargetNotification[]>;
}
