import { NullableString } from '../../../../common/http/response-properties.js';
import { ApiProperty } from '@nestjs/swagger';
import { PageEnvelopeResponseDto } from '../../../../common/paging/page-envelope-response.dto.js';
import {
  PyDateOrDateTime,
  PyInt,
  PyOptional,
  PyStr,
  PyUuid,
} from '../../../../common/validation/py-validators.js';

export class ListAuditEventsQueryDto {
  @PyOptional({ description: 'The page number to get (0-based).', default: 0 })
  @PyInt({ ge: 0 })
  page: number = 0;

  @PyOptional({ description: 'Events per page.', default: 100 })
  @PyInt({ ge: 1, le: 1000 })
  limit: number = 100;

  @PyOptional({ nullable: true, description: 'The actor: an API key id (or a person id).' })
  @PyStr({ max: 200 })
  actor_id?: string | null;

  @PyOptional({ nullable: true, description: 'An action name, e.g. target.read.' })
  @PyStr({ max: 100 })
  action?: string | null;

  @PyOptional({ nullable: true, description: 'A resource type, e.g. target.' })
  @PyStr({ max: 100 })
  resource_type?: string | null;

  @PyOptional({
    nullable: true,
    description: 'The resource, or one of the resources a list page returned.',
  })
  @PyStr({ max: 200 })
  resource_id?: string | null;

  @PyOptional({ nullable: true })
  @PyUuid()
  campaign_id?: string | null;

  @PyOptional({ nullable: true, description: 'At or after (date, date-time or unix time).' })
  @PyDateOrDateTime()
  from?: string | null;

  @PyOptional({ nullable: true, description: 'At or before (a date covers the whole day).' })
  @PyDateOrDateTime()
  to?: string | null;
}

class AuditActorDto {
  @ApiProperty({ example: 'api_key' }) kind: string;
  @ApiProperty() id: string;
  @ApiProperty() name: string;
  @ApiProperty({ example: 'admin' }) role: string;
}

export class AuditEventResponseDto {
  @ApiProperty({ format: 'uuid' }) id: string;
  @ApiProperty({ type: 'integer', description: "The event's number in its organization's chain" })
  seq: number;
  @ApiProperty({ format: 'date-time' }) occurred_at: string;
  @ApiProperty({ type: AuditActorDto }) actor: AuditActorDto;
  @ApiProperty({ example: 'target.read' }) action: string;
  @ApiProperty({ example: 'target' }) resource_type: string;
  @NullableString() resource_id: string | null;
  @NullableString({ format: 'uuid' }) campaign_id: string | null;
  @ApiProperty({ type: [String] }) resource_ids: string[];
  @ApiProperty({ enum: ['allowed', 'refused'] }) outcome: string;
  @NullableString() client_address: string | null;
  @NullableString() request_id: string | null;
  @ApiProperty({ type: [String] }) changed_fields: string[];
  @ApiProperty({ type: 'object', nullable: true, additionalProperties: true })
  changes: Record<string, unknown> | null;
  @ApiProperty({ type: 'object', nullable: true, additionalProperties: true })
  detail: Record<string, unknown> | null;
  @NullableString() prev_hash: string | null;
  @ApiProperty() hash: string;
}

export class AuditEventPageResponseDto extends PageEnvelopeResponseDto {
  @ApiProperty({ type: [AuditEventResponseDto] }) audit_events: AuditEventResponseDto[];
}

class ChainMismatchDto {
  @ApiProperty({ format: 'uuid' }) id: string;
  @ApiProperty({ type: 'integer' }) seq: number;
  @ApiProperty() reason: string;
}

export class AuditChainResponseDto {
  @ApiProperty() valid: boolean;
  @ApiProperty({ type: 'integer' }) events_checked: number;
  @NullableString() last_hash: string | null;
  @ApiProperty({ type: ChainMismatchDto, nullable: true })
  first_mismatch: ChainMismatchDto | null;
}
