import { ApiProperty } from '@nestjs/swagger';
import { checkString, PyList, PyRequired } from '../../../../common/validation/py-validators.js';

export const MAX_TARGET_IDS_PER_DELETE = 10000;

export class DeleteTargetsDto {
  @PyRequired({ type: [String], description: 'The IDs of the targets to delete' })
  @PyList({ max: MAX_TARGET_IDS_PER_DELETE }, checkString)
  target_ids: string[];
}

export class SkippedDeleteDto {
  @ApiProperty({ type: 'string', example: '7d0c3c52-0c52-4d0e-9f6a-2f7c0d6b1a11' }) id: string;
  @ApiProperty({ type: 'string', enum: ['in_progress'] }) reason: 'in_progress';
}

export class DeleteTargetsResponseDto {
  @ApiProperty({ type: [String] }) deleted: string[];
  @ApiProperty({
    type: [String],
    description: 'Unknown, malformed, or in another campaign or organization',
  })
  not_found: string[];
  @ApiProperty({
    type: [SkippedDeleteDto],
    description: 'Targets not deleted because a call is being made or processed',
  })
  skipped: SkippedDeleteDto[];
}
