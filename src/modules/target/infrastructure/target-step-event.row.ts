import { rowMapper, type RowOf } from '../../../common/persistence/row-of.js';
import type { StepEventRecord } from '../application/ports/target-step-data.js';

/** A `target_step_events` row as `pg` returns it (the arrival order `seq` is only sorted on). */
export type TargetStepEventRow = RowOf<StepEventRecord>;

/** The columns of `target_step_events` a history entry is read from. */
export const TARGET_STEP_EVENT_COLUMNS = [
  'id',
  'organization_id',
  'campaign_id',
  'target_id',
  'kind',
  'friendly_id',
  'event_type',
  'data',
  'api_key_id',
  'received_at',
] as const satisfies readonly (keyof TargetStepEventRow)[];

export const stepEventFromRow = rowMapper<StepEventRecord>()(TARGET_STEP_EVENT_COLUMNS);
