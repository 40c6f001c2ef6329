import { ApiProperty } from '@nestjs/swagger';
import { DateTime, NullableString } from '../../../../common/http/response-properties.js';
import {
  isDateTimeInput,
  PyDateOrDateTime,
  PyEnum,
  PyInt,
  PyOptional,
  PyRequired,
  PyValueRule,
} from '../../../../common/validation/py-validators.js';
import { lowerBound, upperBound } from '../../../../common/dates/date-bounds.js';
import { DELIVERY_STATUSES, type DeliveryStatus } from '../../domain/webhook-delivery.js';
import { PageEnvelopeResponseDto } from '../../../../common/paging/page-envelope-response.dto.js';

const fromNotAfterTo = (to: unknown, body: { from_date?: unknown }): string | null => {
  if (!isDateTimeInput(to) || !isDateTimeInput(body.from_date)) return null;
  return lowerBound(body.from_date)! > upperBound(to)!
    ? 'from_date must be before or equal to to_date'
    : null;
};

export class RerunFailedWebhooksDto {
  @PyRequired({
    description:
      'Start of the window (webhook event created_at), inclusive. A date or an ISO-8601 date-time (UTC without offset).',
    example: '2026-01-01T00:00:00Z',
  })
  @PyDateOrDateTime()
  from_date: string | number;

  @PyRequired({
    description:
      'End of the window (webhook event created_at), inclusive; a date-only value covers that whole day.',
    example: '2026-01-31T23:59:59Z',
  })
  @PyDateOrDateTime()
  @PyValueRule('fromNotAfterTo', fromNotAfterTo)
  to_date: string | number;
}

export class ListDeliveriesQueryDto {
  @PyOptional({ description: 'Only deliveries in this status' })
  @PyEnum(DELIVERY_STATUSES)
  status?: DeliveryStatus;

  @PyOptional({ default: 0, description: '0-based page number' })
  @PyInt({ ge: 0 })
  page: number = 0;

  @PyOptional({ default: 100 })
  @PyInt({ ge: 1, le: 1000 })
  limit: number = 100;
}

export class RerunFailedWebhooksResponseDto {
  @ApiProperty({
    type: 'integer',
    description: 'Failed deliveries of the window queued again',
    example: 3,
  })
  requeued: number;
}

export class WebhookSecretResponseDto {
  @ApiProperty({
    example: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw',
    description: 'The new signing secret; the old one stops signing at once',
  })
  webhook_secret: string;
}

export class DeliveryAttemptDto {
  @DateTime() attempted_at: string;
  @NullableString() url: string | null;
  @ApiProperty({ nullable: true, type: 'integer', example: 500 }) status_code: number | null;
  @ApiProperty({ type: 'integer', example: 42 }) duration_ms: number;
  @ApiProperty() success: boolean;
  @NullableString({ example: 'HTTP 500' }) error: string | null;
  @NullableString({ description: 'The first 1 KiB of the response body' })
  response_excerpt: string | null;
}

export class WebhookDeliveryDto {
  @ApiProperty({ format: 'uuid' }) id: string;
  @ApiProperty({
    format: 'uuid',
    description: 'The event id, sent as the webhook-id header on every attempt',
  })
  event_id: string;
  @ApiProperty({ example: 'target.call_finished' }) event_type: string;
  @ApiProperty({ format: 'uuid' }) campaign_id: string;
  @ApiProperty({
    format: 'uuid',
    type: String,
    nullable: true,
    description: 'null for events about no single target (import.finished)',
  })
  target_id: string | null;
  @ApiProperty({ enum: DELIVERY_STATUSES }) status: DeliveryStatus;
  @ApiProperty({ type: 'integer', description: 'Attempts made so far, reruns included' })
  attempt_count: number;
  @NullableString({ format: 'date-time', description: 'When a pending delivery is due' })
  next_attempt_at: string | null;
  @ApiProperty({ nullable: true, type: 'integer' }) last_status_code: number | null;
  @NullableString() last_error: string | null;
  @NullableString({ format: 'date-time' }) last_attempt_at: string | null;
  @NullableString({ format: 'date-time' }) delivered_at: string | null;
  @ApiProperty({ type: 'object', additionalProperties: true, description: 'The JSON body sent' })
  payload: Record<string, unknown>;
  @DateTime({ description: 'When the event happened (the rerun window compares this)' })
  created_at: string;
  @DateTime() updated_at: string;
}

export class WebhookDeliveryDetailDto extends WebhookDeliveryDto {
  @ApiProperty({ type: [DeliveryAttemptDto] }) attempts: DeliveryAttemptDto[];
}

export class WebhookDeliveryPageDto extends PageEnvelopeResponseDto {
  @ApiProperty({ type: [WebhookDeliveryDto] }) deliveries: WebhookDeliveryDto[];
}
