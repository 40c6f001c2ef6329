import type { CampaignStep } from '../../campaign/domain/campaign.js';
import type { StepEventRecord } from '../application/ports/target-step-data.js';

/** A `target_step_events` row as `pg` returns it (the arrival order `seq` is only sorted on). */
export interface TargetStepEventRow {
  id: string;
  organization_id: string;
  campaign_id: string;
  target_id: string;
  kind: CampaignStep['type'];
  friendly_id: string;
  event_type: string | null;
  data: Record<string, unknown>;
  api_key_id: string | null;
  received_at: Date;
}

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

export function stepEventFromRow(r: TargetStepEventRow): StepEventRecord {
  return {
    id: r.id,
    organizationId: r.organization_id,
    campaignId: r.campaign_id,
    targetId: r.target_id,
    kind: r.kind,
    friendlyId: r.friendly_id,
    eventType: r.event_type,
    data: r.data,
    apiKeyId: r.api_key_id,
    receivedAt: r.received_at,
  };
}
