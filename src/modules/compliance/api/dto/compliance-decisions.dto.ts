import { DateTime, NullableString } from '../../../../common/http/response-properties.js';
import { ApiProperty } from '@nestjs/swagger';
import {
  PyDateOrDateTime,
  PyInt,
  PyOptional,
  PyUuid,
} from '../../../../common/validation/py-validators.js';

export class ListDecisionsQueryDto {
  @PyOptional({ nullable: true })
  @PyUuid()
  campaign_id?: string | null;

  @PyOptional({ nullable: true, description: 'Decided at or after (date, date-time or unix time)' })
  @PyDateOrDateTime()
  from?: string | null;

  @PyOptional({ nullable: true, description: 'Decided at or before (a date covers the whole day)' })
  @PyDateOrDateTime()
  to?: string | null;

  @PyOptional({ default: 100, description: 'Page size' })
  @PyInt({ ge: 1, le: 1000 })
  limit: number = 100;

  @PyOptional({ default: 0, description: 'Decisions to skip' })
  @PyInt({ ge: 0 })
  skip: number = 0;
}

export class ComplianceDecisionResponseDto {
  @ApiProperty({ type: 'integer' }) id: number;
  @ApiProperty({ format: 'uuid' }) campaign_id: string;
  @ApiProperty() target_id: string;
  @ApiProperty({
    enum: [
      'quiet_hours',
      'state_hours',
      'state_limit',
      'organization_limit',
      'restricted_date',
      'do_not_call',
    ],
  })
  rule: string;
  @ApiProperty({ enum: ['deferred', 'refused'] }) action: string;
  @ApiProperty({ example: 'quiet hours: 06:12 in America/Los_Angeles, calls from 08:00' })
  reason: string;
  @NullableString({ example: 'America/Los_Angeles' }) time_zone: string | null;
  @NullableString({ example: '2026-11-26 06:12' }) local_time: string | null;
  @DateTime({ nullable: true }) deferred_until: string | null;
  @DateTime() decided_at: string;
}

export class ComplianceDecisionPageResponseDto {
  @ApiProperty({ type: [ComplianceDecisionResponseDto] })
  decisions: ComplianceDecisionResponseDto[];
  @ApiProperty({ type: 'integer', description: 'Decisions matching the query' }) total: number;
}
