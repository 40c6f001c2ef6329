import { Tx } from '../../../../common/persistence/unit-of-work.js';

/** `campaign.paused`: the circuit breaker paused a campaign (docs/webhooks.md). */
export interface CampaignPausedEvent {
  organizationId: string;
  campaignId: string;
  /** In words, as the campaign's `paused_reason`. */
  reason: string;
  /** Share of the last `window` ended calls that ended TECHNICAL_FAILURE. */
  failureRatio: number;
  window: number;
  pausedAt: Date;
}

/** Records the event in the outbox, in the transaction that pauses the campaign. */
export abstract class CampaignPausedOutbox {
  abstract record(tx: Tx, event: CampaignPausedEvent): Promise<void>;
}
