import {
  DeliveryAttempt,
  DeliveryWithAttempts,
  WebhookDelivery,
} from '../domain/webhook-delivery.js';
import {
  DeliveryAttemptDto,
  WebhookDeliveryDetailDto,
  WebhookDeliveryDto,
} from './dto/webhook.dto.js';

const iso = (d: Date | null): string | null => (d ? d.toISOString() : null);

export function presentDelivery(d: WebhookDelivery): WebhookDeliveryDto {
  return {
    id: d.id,
    event_id: d.eventId,
    event_type: d.eventType,
    campaign_id: d.campaignId,
    target_id: d.targetId,
    status: d.status,
    attempt_count: d.attempts,
    // While sending, the stored time is the claim's lease: not a schedule an operator should read.
    next_attempt_at: d.status === 'pending' ? iso(d.nextAttemptAt) : null,
    last_status_code: d.lastStatusCode,
    last_error: d.lastError,
    last_attempt_at: iso(d.lastAttemptAt),
    delivered_at: iso(d.deliveredAt),
    payload: d.payload,
    created_at: d.eventCreatedAt.toISOString(),
    updated_at: d.updatedAt.toISOString(),
  };
}

function presentAttempt(a: DeliveryAttempt): DeliveryAttemptDto {
  return {
    attempted_at: a.attemptedAt.toISOString(),
    url: a.url,
    status_code: a.statusCode,
    duration_ms: a.durationMs,
    success: a.success,
    error: a.error,
    response_excerpt: a.responseExcerpt,
  };
}

export function presentDeliveryDetail(d: DeliveryWithAttempts): WebhookDeliveryDetailDto {
  return { ...presentDelivery(d), attempts: d.attemptLog.map(presentAttempt) };
}
