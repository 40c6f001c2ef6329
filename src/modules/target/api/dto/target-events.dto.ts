import { DateTime, NullableString } from '../../../../common/http/response-properties.js';
import { ApiProperty } from '@nestjs/swagger';
import {
  PyInt,
  PyOptional,
  PyStr,
  PyValueRule,
} from '../../../../common/validation/py-validators.js';
import { TIMELINE_KINDS } from '../../application/ports/target-event-log.js';
import { TARGET_STATUS_FILTERS } from '../../domain/target.js';
import { decodeTimelineCursor } from '../timeline-cursor.js';

export class ListTargetEventsQueryDto {
  @PyOptional({ default: 50, description: 'The number of events per page' })
  @PyInt({ ge: 1, le: 200 })
  limit: number = 50;

  @PyOptional({
    description: 'The next_cursor of the previous page: the events older than that page.',
  })
  @PyStr()
  @PyValueRule('timelineCursor', (v) =>
    typeof v === 'string' && decodeTimelineCursor(v) === null ? 'invalid cursor' : null,
  )
  cursor?: string;
}

export class TimelineActorResponseDto {
  @ApiProperty({ enum: ['api_key', 'user', 'worker', 'provider', 'system'] }) type: string;
  @NullableString({
    description:
      'The API key id, or the provider event / connection id; null for worker and system',
  })
  id: string | null;
}

export class TimelineEventResponseDto {
  @ApiProperty() id: string;
  @DateTime() at: string;
  @ApiProperty({ enum: TIMELINE_KINDS }) kind: string;
  @NullableString({
    enum: [...TARGET_STATUS_FILTERS, null],
    description: 'The status after the event, when the event changed it',
  })
  status: string | null;
  @ApiProperty({ type: TimelineActorResponseDto }) actor: TimelineActorResponseDto;
  @ApiProperty({
    example: 'retry 2 of 3 after NO_RESPONSE',
    description: 'Why, in words',
  })
  reason: string;
  @ApiProperty({
    type: 'object',
    additionalProperties: true,
    description:
      'By kind: call_log_id, attempt, outcome (call_started, call_ended); from (status_changed); keys ' +
      '(input_edited); scheduled_time (deferred); step, keys (step_data); event_id, event_type, ' +
      'delivery_status (notification); last_status (deleted)',
  })
  data: Record<string, unknown>;
}

export class TargetEventsResponseDto {
  @ApiProperty({ type: [TimelineEventResponseDto] }) items: TimelineEventResponseDto[];
  @NullableString({ description: 'Pass as cursor for the older events; null when none follow' })
  next_cursor: string | null;
}
