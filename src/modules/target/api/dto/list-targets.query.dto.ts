import { ApiPropertyOptional } from '@nestjs/swagger';
import {
  PyDateOrDateTime,
  PyEnum,
  PyInt,
  PyOptional,
  PyStr,
  PyValueRule,
} from '../../../../common/validation/py-validators.js';
import { TARGET_STATUS_FILTERS, type TargetStatus } from '../../domain/target.js';
import { decodeTargetCursor } from '../target-cursor.js';

const DATE_EXAMPLE = '2024-01-01T00:00:00Z';

export class ListTargetsQueryDto {
  @ApiPropertyOptional({ default: 0, minimum: 0, description: 'The page number to get (0-based)' })
  @PyOptional()
  @PyInt({ ge: 0 })
  page: number = 0;

  @ApiPropertyOptional({
    default: 10,
    minimum: 1,
    maximum: 100,
    description: 'The number of targets per page',
  })
  @PyOptional()
  @PyInt({ ge: 1, le: 100 })
  limit: number = 10;

  @ApiPropertyOptional({
    description:
      'Keyset paging: the next_cursor of the previous response. The rows after that position, with ' +
      'the same filters; page is then ignored and next_page is null. Stable while targets are added ' +
      'and deleted: each target is listed at most once, in order.',
  })
  @PyOptional()
  @PyStr()
  @PyValueRule('targetCursor', (v) =>
    typeof v === 'string' && decodeTargetCursor(v) === null ? 'invalid cursor' : null,
  )
  cursor?: string;

  @ApiPropertyOptional({
    enum: TARGET_STATUS_FILTERS,
    description: 'The status of the targets to get',
  })
  @PyOptional()
  @PyEnum(TARGET_STATUS_FILTERS)
  status?: TargetStatus;

  @ApiPropertyOptional({
    example: 'PAT-1',
    description:
      'Only the target with this external id (exact match; they are unique per campaign)',
  })
  @PyOptional()
  @PyStr()
  external_id?: string;

  @ApiPropertyOptional({
    example: 'lopez',
    maxLength: 200,
    description:
      "Search (added to the reference): the patient's name (a word matches the start of the first or " +
      'last name; two or more, first and last name in either order, case-insensitive), the external ' +
      "id (MRN) exactly, or the phone number (read as the add reads it, in the campaign's country)",
  })
  @PyOptional()
  @PyStr({ max: 200 })
  search?: string;

  @ApiPropertyOptional({
    format: 'date-time',
    example: DATE_EXAMPLE,
    description: 'Created at or after (inclusive)',
  })
  @PyOptional()
  @PyDateOrDateTime()
  from_date?: string;

  @ApiPropertyOptional({
    format: 'date-time',
    example: DATE_EXAMPLE,
    description: 'Created at or before (inclusive; a date covers that whole day)',
  })
  @PyOptional()
  @PyDateOrDateTime()
  to_date?: string;

  @ApiPropertyOptional({
    format: 'date-time',
    example: DATE_EXAMPLE,
    description: 'Last call at or after (inclusive)',
  })
  @PyOptional()
  @PyDateOrDateTime()
  from_last_call_date?: string;

  @ApiPropertyOptional({
    format: 'date-time',
    example: DATE_EXAMPLE,
    description: 'Last call at or before (inclusive; a date covers that whole day)',
  })
  @PyOptional()
  @PyDateOrDateTime()
  to_last_call_date?: string;
}
