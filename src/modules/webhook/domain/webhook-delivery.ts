/**
 * Outbound webhook notifications: what is sent (the event payload), and the pure rules of a delivery's
 * life (retry schedule, outcome of an attempt). Plain TypeScript, camelCase here, snake_case on the wire.
 */
import type {
  CallFinishedEvent,
  CampaignPausedEvent,
  ImportFinishedEvent,
  MessageEvent,
} from '../application/ports/outbox.js';

// The payloads below are the flat JSON a receiver gets for each kind of event, its `type` first. No
// personal data: receivers read targets, texts and import reports through the API.

/** `campaign.paused`: the circuit breaker paused the campaign; no target. */
export function campaignPausedPayload(event: CampaignPausedEvent) {
  return {
    type: 'campaign.paused',
    campaign_id: event.campaignId,
    reason: event.reason,
    failure_ratio: event.failureRatio,
    window: event.window,
    paused_at: event.pausedAt.toISOString(),
  };
}

/** `message.status` / `message.received`: ids and status only; the body is read through the API. */
export function messagePayload(event: MessageEvent) {
  return {
    type: event.type,
    campaign_id: event.campaignId,
    target_id: event.targetId,
    message_id: event.messageId,
    direction: event.direction,
    status: event.status,
    error_code: event.errorCode,
    at: event.at.toISOString(),
  };
}

/** `import.finished`: counts only; the report (row errors, ignored rows) is read through the API. */
export function importFinishedPayload(event: ImportFinishedEvent) {
  return {
    type: 'import.finished',
    campaign_id: event.campaignId,
    import_id: event.importId,
    status: event.status,
    dry_run: event.dryRun,
    rows: event.rows,
    invalid_rows: event.invalidRows,
    created: event.created,
    ignored_rows: event.ignoredRows,
  };
}

/**
 * `pending`: waiting for its (next) attempt; `sending`: claimed by a worker under a lease;
 * `delivered`: a 2xx was received; `failed`: the retry schedule is exhausted (a rerun makes it pending).
 */
export const DELIVERY_STATUSES = ['pending', 'sending', 'delivered', 'failed'] as const;
export type DeliveryStatus = (typeof DELIVERY_STATUSES)[number];

/** `target.call_finished`: the flat payload of DECISIONS, compatible with the real service's. */
export function callFinishedPayload(event: CallFinishedEvent) {
  return {
    type: 'target.call_finished',
    campaign_id: event.campaignId,
    target_id: event.targetId,
    call_log_id: event.callLogId === null ? null : Number(event.callLogId),
    attempt: event.attempt,
    max_attempts: event.maxAttempts,
    next_attempt_scheduled: event.nextAttemptScheduled
      ? event.nextAttemptScheduled.toISOString()
      : null,
    status: event.status,
    resolution: event.resolution,
    category: event.category,
    subcategory: event.subcategory,
  };
}

export interface WebhookDelivery {
  id: string;
  eventId: string;
  organizationId: string;
  campaignId: string;
  targetId: string | null;
  eventType: string;
  payload: Record<string, unknown>;
  status: DeliveryStatus;
  /** Attempts ever made, reruns included. */
  attempts: number;
  nextAttemptAt: Date | null;
  lastStatusCode: number | null;
  lastError: string | null;
  lastAttemptAt: Date | null;
  deliveredAt: Date | null;
  eventCreatedAt: Date;
  createdAt: Date;
  updatedAt: Date;
}

export interface DeliveryAttempt {
  id: number;
  attemptedAt: Date;
  url: string | null;
  statusCode: number | null;
  durationMs: number;
  success: boolean;
  error: string | null;
  responseExcerpt: string | null;
}

export type DeliveryWithAttempts = WebhookDelivery & { attemptLog: DeliveryAttempt[] };

/** Response excerpts are capped: enough to see why a receiver refused, never a whole page. */
export const RESPONSE_EXCERPT_BYTES = 1024;

const UNIT_MS: Record<string, number> = { ms: 1, s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000 };

/**
 * `WEBHOOK_RETRY_SCHEDULE`: the delays between attempts, e.g. `5s,5m,30m,2h`. N delays mean N + 1
 * attempts. A bare number is seconds.
 */
export function parseRetrySchedule(text: string): number[] {
  const parts = text
    .split(',')
    .map((p) => p.trim())
    .filter((p) => p !== '');
  return parts.map((part) => {
    const m = /^(\d+(?:\.\d+)?)\s*(ms|s|m|h|d)?$/i.exec(part);
    if (!m)
      throw new Error(`WEBHOOK_RETRY_SCHEDULE: cannot read "${part}" (use e.g. 5s,5m,30m,2h)`);
    return Math.round(Number(m[1]) * UNIT_MS[(m[2] ?? 's').toLowerCase()]);
  });
}

export type AttemptOutcome =
  { kind: 'delivered' } | { kind: 'retry'; nextAttemptAt: Date } | { kind: 'failed' };

/**
 * After an attempt: a 2xx is delivered; otherwise the next delay of the schedule applies, counted from
 * the start of the current run (creation or the last rerun), until the schedule is exhausted.
 */
export function outcomeOf(
  success: boolean,
  runAttempts: number,
  scheduleMs: readonly number[],
  now: Date,
): AttemptOutcome {
  if (success) return { kind: 'delivered' };
  const delay = scheduleMs[runAttempts - 1];
  if (delay === undefined) return { kind: 'failed' };
  return { kind: 'retry', nextAttemptAt: new Date(now.getTime() + delay) };
}

export function isSuccessStatus(statusCode: number | null): boolean {
  return statusCode !== null && statusCode >= 200 && statusCode < 300;
}

/** A receiver answering 410 Gone asks for no more deliveries: the delivery fails at once. */
export function isGoneStatus(statusCode: number | null): boolean {
  return statusCode === 410;
}
