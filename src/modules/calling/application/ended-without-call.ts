import type { Campaign } from '../../campaign/domain/campaign.js';
import type { Target } from '../../target/domain/target.js';
import type { OutboxEvent } from '../../webhook/application/ports/outbox.js';

/**
 * The `target.call_finished` notification of a target that ended without a call being placed
 * (blacklisted, or its campaign cancelled): no call log, no retry.
 */
export function endedWithoutCall(target: Target, campaign: Campaign): OutboxEvent {
  const event = {
    organizationId: target.organizationId,
    campaignId: target.campaignId,
    targetId: target.id,
    callLogId: null,
    attempt: target.attempts,
    maxAttempts: campaign.maxAttempts,
    nextAttemptScheduled: null,
    status: target.status,
    resolution: target.resolution,
    category: target.category,
    subcategory: target.subcategory,
  };
  return { kind: 'call_finished', event };
}
