import { ApiProperty } from '@nestjs/swagger';
import {
  checkString,
  PyBool,
  PyInt,
  PyList,
  PyModelRule,
  PyOptional,
} from '../../../../common/validation/py-validators.js';

/** Exactly one of the two selectors (DECISIONS: Trigger calls). */
export const EXACTLY_ONE_SELECTOR = 'Exactly one of target_ids or count must be provided';

@PyModelRule((t: TriggerCallsDto) =>
  (t.target_ids == null) === (t.count == null) ? EXACTLY_ONE_SELECTOR : null,
)
export class TriggerCallsDto {
  @PyOptional({
    type: [String],
    nullable: true,
    description:
      'The IDs of the campaign targets to call (1..5000). If not provided, count must be set.',
  })
  @PyList({ min: 1, max: 5000 }, checkString)
  target_ids?: string[] | null;

  @PyOptional({
    nullable: true,
    description:
      'Number of Pending targets to launch (1..10000). If not provided, target_ids must be set.',
  })
  @PyInt({ ge: 1, le: 10000 })
  count?: number | null;

  @PyOptional({
    default: false,
    description: 'With count: take the oldest Pending targets first instead of a random pick.',
  })
  @PyBool()
  prioritize_oldest: boolean = false;
}

class SkippedTargetDto {
  @ApiProperty() id: string;
  @ApiProperty({ enum: ['not_found', 'not_pending'] }) reason: string;
}

export class TriggerCallsResponseDto {
  @ApiProperty({ type: [String], description: 'Targets now Scheduled (due at once)' })
  scheduled: string[];
  @ApiProperty({ type: [SkippedTargetDto] }) skipped: SkippedTargetDto[];
}
