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
  @PyOptional({ default: 0, description: 'The page number to get (0-based)' })
  @PyInt({ ge: 0 })
  page: number = 0;

  @PyOptional({ default: 10, description: 'The number of targets per page' })
  @PyInt({ ge: 1, le: 100 })
  limit: number = 10;

  @PyOptional({
    description:
      'Keyset paging: the next_cursor of the previous response. The rows after that position, with ' +
      'the same filters; page is then ignored and next_page is null. Stable while targets are added ' +
      'and deleted: each target is listed at most once, in order.',
  })
  @PyStr()
  @PyValueRule('targetCursor', (v) =>
    typeof v === 'string' && decodeTargetCursor(v) === null ? 'invalid cursor' : null,
  )
  cursor?: string;

  @PyOptional({ description: 'The status of the targets to get' })
  @PyEnum(TARGET_STATUS_FILTERS)
  status?: TargetStatus;

  @PyOptional({
    example: 'PAT-1',
    description:
      'Only the target with this external id (exact match; they are unique per campaign)',
  })
  @PyStr()
  external_id?: string;

  @PyOptional({
    example: 'lopez',
    description:
      "Search (added to the reference): the patient's name (a word matches the start of the first or " +
      'last name; two or more, first and last name in either order, case-insensitive), the external ' +
      "id (MRN) exactly, or the phone number (read as the add reads it, in the campaign's country)",
  })
  @PyStr({ max: 200 })
  search?: string;

  @PyOptional({ example: DATE_EXAMPLE, description: 'Created at or after (inclusive)' })
  @PyDateOrDateTime()
  from_date?: string;

  @PyOptional({
    example: DATE_EXAMPLE,
    description: 'Created at or before (inclusive; a date covers that whole day)',
  })
  @PyDateOrDateTime()
  to_date?: string;

  @PyOptional({ example: DATE_EXAMPLE, description: 'Last call at or after (inclusive)' })
  @PyDateOrDateTime()
  from_last_call_date?: string;

  @PyOptional({
    example: DATE_EXAMPLE,
    description: 'Last call at or before (inclusive; a date covers that whole day)',
  })
  @PyDateOrDateTime()
  to_last_call_date?: string;
}
