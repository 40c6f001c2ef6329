import { PyEnum, PyRequired } from '../../../../common/validation/py-validators.js';
import type { ReviewAction } from '../../application/ports/target-transitions.js';

export const REVIEW_ACTIONS = ['done', 'requeue'] as const satisfies readonly ReviewAction[];

export class ReviewTargetDto {
  @PyRequired({
    description:
      'done: the target ends Finished, its outcome and category kept. requeue: the target is ' +
      'Scheduled, due now, for one more attempt (even when max_attempts were used).',
    example: 'done',
  })
  @PyEnum(REVIEW_ACTIONS)
  action: ReviewAction;
}
