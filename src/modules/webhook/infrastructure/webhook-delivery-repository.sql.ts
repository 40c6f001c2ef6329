import { Injectable } from '@nestjs/common';
import { rowMapper, type RowOf } from '../../../common/persistence/row-of.js';
import { DataSource } from 'typeorm';
import { Tx } from '../../../common/persistence/unit-of-work.js';
import { sqlExecutor } from '../../../database/sql.js';
import {
  AttemptRecord,
  AttemptResult,
  ClaimedDelivery,
  NewWebhookEvent,
  WebhookDeliveryRepository,
} from '../application/ports/webhook-delivery.repository.js';
import {
  TargetNotification,
  TargetNotifications,
} from '../application/ports/target-notifications.js';
import {
  DeliveryAttempt,
  DeliveryStatus,
  DeliveryWithAttempts,
  WebhookDelivery,
} from '../domain/webhook-delivery.js';

/**
 * A delivery joined with its event, as `DELIVERY_COLUMNS` reads it. `payload` is a `json` column:
 * parsed by `pg`, or the text when a driver leaves it alone.
 */
type DeliveryRow = RowOf<Omit<WebhookDelivery, 'payload'>> & {
  payload: Record<string, unknown> | string;
};

const DELIVERY_COLUMNS = `
  d.id, d.event_id, d.organization_id, d.campaign_id, e.target_id, e.type AS event_type, e.payload,
  d.status, d.attempts, d.next_attempt_at, d.last_status_code, d.last_error, d.last_attempt_at,
  d.delivered_at, d.event_created_at, d.created_at, d.updated_at`;

/** A `webhook_delivery_attempts` row (`id` is a bigserial: `pg` returns it as a string). */
type AttemptRow = RowOf<Omit<DeliveryAttempt, 'id'>> & { id: string };

const ATTEMPT_COLUMNS =
  'id, attempted_at, url, status_code, duration_ms, success, error, response_excerpt';

/** What a claim reads back: the delivery, its event's body and the campaign's endpoint now. */
interface ClaimRow {
  id: string;
  event_id: string;
  run_attempts: number;
  body: string;
  webhook_url: string | null;
  webhook_secret: string;
}

/**
 * Raw SQL on the webhook tables. It also reads the campaign's current `webhook_url` and
 * `webhook_secret` (the core schema's `campaigns` table) in the same statements that create and claim
 * a delivery, so the outbox write stays one statement and a send sees the endpoint as it is now.
 */
@Injectable()
export class SqlWebhookDeliveryRepository
  extends WebhookDeliveryRepository
  implements TargetNotifications
{
  constructor(private readonly dataSource: DataSource) {
    super();
  }

  async recordEvents(tx: Tx, events: NewWebhookEvent[]): Promise<string[]> {
    if (events.length === 0) return [];
    // One statement for any number of events. `payload` is json, not jsonb: the body is sent exactly
    // as recorded, and json_to_recordset hands each payload on as the text it was given.
    const { rows } = await sqlExecutor(this.dataSource, tx).query<{ id: string }>(
      `WITH event AS (
         INSERT INTO webhook_events (id, organization_id, campaign_id, target_id, type, payload, created_at)
         SELECT e.id, e.organization_id, e.campaign_id, e.target_id, e.type, e.payload, e.created_at
           FROM json_to_recordset($1::json) AS e(id uuid, organization_id uuid, campaign_id uuid,
                target_id uuid, type text, payload json, created_at timestamptz)
         RETURNING id, organization_id, campaign_id, created_at
       )
       INSERT INTO webhook_deliveries
         (id, event_id, organization_id, campaign_id, status, next_attempt_at, event_created_at, created_at, updated_at)
       SELECT gen_random_uuid(), event.id, event.organization_id, event.campaign_id, 'pending',
              event.created_at, event.created_at, event.created_at, event.created_at
       FROM event JOIN campaigns c ON c.id = event.campaign_id
       WHERE c.webhook_url IS NOT NULL AND c.webhook_url <> ''
       RETURNING id`,
      [
        JSON.stringify(
          events.map((e) => ({
            id: e.id,
            organization_id: e.organizationId,
            campaign_id: e.campaignId,
            target_id: e.targetId,
            type: e.type,
            payload: e.payload,
            created_at: e.createdAt.toISOString(),
          })),
        ),
      ],
    );
    return rows.map((r) => r.id);
  }

  async claim(
    deliveryId: string,
    now: Date,
    leaseUntil: Date,
    leaseToken: string,
  ): Promise<ClaimedDelivery | null> {
    // next_attempt_at doubles as the lease end while sending, so one index serves the recovery sweep.
    const { rows } = await sqlExecutor(this.dataSource, null).query<ClaimRow>(
      `UPDATE webhook_deliveries d
       SET status = 'sending', lease_token = $4, lease_until = $3, next_attempt_at = $3,
           run_attempts = d.run_attempts + 1, attempts = d.attempts + 1, updated_at = $2
       FROM webhook_events e, campaigns c
       WHERE d.id = $1 AND e.id = d.event_id AND c.id = d.campaign_id
         AND ((d.status = 'pending' AND d.next_attempt_at <= $2::timestamptz + interval '1 second')
              OR (d.status = 'sending' AND d.lease_until < $2))
       RETURNING d.id, d.event_id, d.run_attempts, e.payload::text AS body, c.webhook_url, c.webhook_secret`,
      [deliveryId, now, leaseUntil, leaseToken],
    );
    const row = rows[0];
    if (!row) return null;
    return {
      id: row.id,
      eventId: row.event_id,
      leaseToken,
      runAttempts: row.run_attempts,
      body: row.body,
      url: row.webhook_url || null,
      secret: row.webhook_secret,
    };
  }

  async completeAttempt(
    tx: Tx | null,
    deliveryId: string,
    leaseToken: string,
    attempt: AttemptRecord,
    result: AttemptResult,
  ): Promise<boolean> {
    // One statement (atomic without a transaction): the attempt is always recorded, the delivery
    // moves on only while the lease is still ours.
    const finishedAt = new Date(attempt.attemptedAt.getTime() + attempt.durationMs);
    const { rows } = await sqlExecutor(this.dataSource, tx).query<{ kept: boolean }>(
      `WITH attempt AS (
         INSERT INTO webhook_delivery_attempts
           (delivery_id, attempted_at, url, status_code, duration_ms, success, error, response_excerpt)
         VALUES ($1, $7, $9, $5, $10, $11, $6, $12)
       ), moved AS (
         UPDATE webhook_deliveries
         SET status = $3, next_attempt_at = $4, lease_token = NULL, lease_until = NULL,
             last_status_code = $5, last_error = $6, last_attempt_at = $7,
             delivered_at = CASE WHEN $3 = 'delivered' THEN $8::timestamptz ELSE delivered_at END,
             updated_at = $8
         WHERE id = $1 AND status = 'sending' AND lease_token = $2
         RETURNING id
       )
       SELECT EXISTS (SELECT 1 FROM moved) AS kept`,
      [
        deliveryId,
        leaseToken,
        result.status,
        result.status === 'pending' ? result.nextAttemptAt : null,
        attempt.statusCode,
        attempt.error,
        attempt.attemptedAt,
        finishedAt,
        attempt.url,
        attempt.durationMs,
        attempt.success,
        attempt.responseExcerpt,
      ],
    );
    return rows[0]?.kept === true;
  }

  async requeueFailed(
    tx: Tx,
    organizationId: string,
    campaignId: string,
    from: Date,
    to: Date,
    now: Date,
  ): Promise<string[]> {
    const { rows } = await sqlExecutor(this.dataSource, tx).query<{ id: string }>(
      `UPDATE webhook_deliveries
       SET status = 'pending', run_attempts = 0, next_attempt_at = $5, updated_at = $5
       WHERE organization_id = $1 AND campaign_id = $2 AND status = 'failed'
         AND event_created_at >= $3 AND event_created_at < $4::timestamptz + interval '1 millisecond'
       RETURNING id`,
      [organizationId, campaignId, from, to, now],
    );
    return rows.map((r) => r.id);
  }

  async reviveOverdue(tx: Tx, before: Date, now: Date, limit: number): Promise<string[]> {
    // SKIP LOCKED: sweeps of several workers at once split the work instead of waiting on each other.
    // For a `sending` row only next_attempt_at moves; the claim still goes by its lease.
    const { rows } = await sqlExecutor(this.dataSource, tx).query<{ id: string }>(
      `UPDATE webhook_deliveries SET next_attempt_at = $2
       WHERE id IN (
         SELECT id FROM webhook_deliveries
         WHERE status IN ('pending', 'sending') AND next_attempt_at < $1
         ORDER BY next_attempt_at LIMIT $3
         FOR UPDATE SKIP LOCKED)
       RETURNING id`,
      [before, now, limit],
    );
    return rows.map((r) => r.id);
  }

  async listForTarget(
    organizationId: string,
    targetId: string,
    before: { atMicros: number; key: string } | null,
    limit: number,
  ): Promise<TargetNotification[]> {
    // webhook_events_target_created_idx and webhook_deliveries_event_idx (migration 1768200000000).
    const key = `('n:' || e.id::text) COLLATE "C"`;
    const at = `(timestamptz 'epoch' + $3::bigint * interval '1 microsecond')`;
    const { rows } = await sqlExecutor(this.dataSource, null).query<{
      id: string;
      type: string;
      created_at: Date;
      created_micros: string;
      sort_key: string;
      delivery_status: string | null;
      delivery_attempts: number | null;
    }>(
      `SELECT e.id, e.type, e.created_at, ${key} AS sort_key,
              ((extract(epoch FROM e.created_at) * 1000000)::bigint)::text AS created_micros,
              d.status AS delivery_status, d.attempts AS delivery_attempts
         FROM webhook_events e
         LEFT JOIN webhook_deliveries d ON d.event_id = e.id
        WHERE e.target_id = $1 AND e.organization_id = $2
          AND ($3::bigint IS NULL OR e.created_at < ${at}
               OR (e.created_at = ${at} AND ${key} < $4::text COLLATE "C"))
        ORDER BY e.created_at DESC, sort_key DESC
        LIMIT $5`,
      [targetId, organizationId, before?.atMicros ?? null, before?.key ?? null, limit],
    );
    return rows.map((r) => ({
      eventId: r.id,
      type: r.type,
      createdAt: r.created_at,
      createdMicros: Number(r.created_micros),
      sortKey: r.sort_key,
      deliveryStatus: r.delivery_status,
      deliveryAttempts: r.delivery_attempts ?? 0,
    }));
  }

  async list(
    organizationId: string,
    campaignId: string,
    status: DeliveryStatus | null,
    page: { offset: number; limit: number },
  ): Promise<{ items: WebhookDelivery[]; total: number }> {
    const sql = sqlExecutor(this.dataSource, null);
    const filter = `d.organization_id = $1 AND d.campaign_id = $2 AND ($3::text IS NULL OR d.status = $3)`;
    const [items, count] = await Promise.all([
      sql.query<DeliveryRow>(
        `SELECT ${DELIVERY_COLUMNS} FROM webhook_deliveries d JOIN webhook_events e ON e.id = d.event_id
         WHERE ${filter} ORDER BY d.created_at, d.id OFFSET $4 LIMIT $5`,
        [organizationId, campaignId, status, page.offset, page.limit],
      ),
      sql.query<{ total: string }>(
        `SELECT count(*) AS total FROM webhook_deliveries d WHERE ${filter}`,
        [organizationId, campaignId, status],
      ),
    ]);
    return { items: items.rows.map(deliveryFromRow), total: Number(count.rows[0]?.total ?? 0) };
  }

  async findById(organizationId: string, deliveryId: string): Promise<DeliveryWithAttempts | null> {
    const sql = sqlExecutor(this.dataSource, null);
    const { rows } = await sql.query<DeliveryRow>(
      `SELECT ${DELIVERY_COLUMNS} FROM webhook_deliveries d JOIN webhook_events e ON e.id = d.event_id
       WHERE d.id = $1 AND d.organization_id = $2`,
      [deliveryId, organizationId],
    );
    if (!rows[0]) return null;
    const attempts = await sql.query<AttemptRow>(
      `SELECT ${ATTEMPT_COLUMNS} FROM webhook_delivery_attempts WHERE delivery_id = $1 ORDER BY id`,
      [deliveryId],
    );
    return { ...deliveryFromRow(rows[0]), attemptLog: attempts.rows.map(attemptFromRow) };
  }
}

const deliveryFromRow = rowMapper<WebhookDelivery, DeliveryRow>()(DELIVERY_COLUMNS, {
  payload: (row) => (typeof row.payload === 'string' ? JSON.parse(row.payload) : row.payload),
});

const attemptFromRow = rowMapper<DeliveryAttempt, AttemptRow>()(ATTEMPT_COLUMNS, {
  id: (row) => Number(row.id),
});
