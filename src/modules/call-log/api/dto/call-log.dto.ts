import { NullableString } from '../../../../common/http/response-properties.js';
import { ApiProperty } from '@nestjs/swagger';
import {
  PyBool,
  PyDateOrDateTime,
  PyInt,
  PyOptional,
  PyRequired,
  PyStr,
} from '../../../../common/validation/py-validators.js';
import { PageEnvelopeResponseDto } from '../../../../common/paging/page-envelope-response.dto.js';

export class ListCallLogsQueryDto {
  @PyOptional({ description: 'The page number to get (0-based).', default: 0 })
  @PyInt({ ge: 0 })
  page: number = 0;

  @PyOptional({ description: 'The number of call logs per page.', default: 200 })
  @PyInt({ ge: 1, le: 1000 })
  limit: number = 200;

  @PyOptional({
    description: 'Filter logs from this date (inclusive): YYYY-MM-DD or an ISO-8601 date-time.',
    nullable: true,
  })
  @PyDateOrDateTime()
  from_date?: string | null;

  @PyOptional({
    description:
      'Filter logs until this date (inclusive; a date-only value covers that whole day).',
    nullable: true,
  })
  @PyDateOrDateTime()
  to_date?: string | null;

  @PyOptional({ description: 'Filter logs by campaign ID.', nullable: true })
  @PyStr()
  campaign_id?: string | null;
}

/** The reference bounds call log ids by PostgreSQL's bigint: 2^63 - 1. */
const MAX_CALL_LOG_ID = BigInt('9223372036854775807');

export class CallLogParamsDto {
  @PyRequired({ description: 'The ID of the call log to get the information.' })
  @PyInt({ ge: 0, le: MAX_CALL_LOG_ID })
  call_log_id: number;
}

export class GetCallLogQueryDto {
  @PyOptional({ description: 'Whether to include recordings.', default: false })
  @PyBool()
  include_recordings: boolean = false;
}

export class CallLogResponseDto {
  @ApiProperty({ example: '42' }) id: string;
  @ApiProperty({ example: '+15550100123' }) to: string;
  @ApiProperty({
    example: 'DeprecatedLocalTest',
    description: "The campaign's caller id, or DeprecatedLocalTest",
  })
  from_: string;
  @ApiProperty({ format: 'date-time' }) created_at: string;
  @ApiProperty({ example: '00:01:05', description: 'HH:MM:SS' }) call_length: string;
  @ApiProperty({ example: 'assistant-ended-call' }) call_ended_reason: string;
  @ApiProperty({ type: 'object', additionalProperties: true, nullable: true })
  call_categorization: Record<string, unknown> | null;
  @ApiProperty({ type: 'object', additionalProperties: true }) agent_data: Record<string, unknown>;
  @NullableString() campaign_target_id: string | null;
  @ApiProperty({ type: 'object', additionalProperties: true, nullable: true })
  post_call_data: Record<string, unknown> | null;
  @ApiProperty({ type: 'object', additionalProperties: true, nullable: true })
  qa: Record<string, unknown> | null;
  @ApiProperty({
    type: 'array',
    items: { type: 'object', additionalProperties: { type: 'string' } },
  })
  transcripts: Record<string, string>[];
}

export class CallLogDetailResponseDto extends CallLogResponseDto {
  @ApiProperty({ type: [String], description: 'Empty unless include_recordings=true' })
  recording_urls: string[];
}

export class CallLogPageResponseDto extends PageEnvelopeResponseDto {
  @ApiProperty({ type: [CallLogResponseDto] }) call_logs: CallLogResponseDto[];
}
