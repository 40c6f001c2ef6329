import type { Tx } from '../../../../common/persistence/unit-of-work.js';
import type { Campaign, CampaignAction } from '../../domain/campaign.js';

/**
 * Pausing, resuming and cancelling campaigns from the calling module, which holds the claim lock the
 * change must be made under. CampaignModule provides it with `useExisting: CampaignService`, beside
 * `CampaignReader`: another module reaches campaigns through these two ports only.
 */
export abstract class CampaignStateChanges {
  /**
   * Pause, resume or cancel in the caller's transaction; `changed: false` when the campaign is in
   * that state already. NotFoundError for another organization's campaign, ConflictError for a
   * cancelled one.
   */
  abstract changeState(
    tx: Tx,
    organizationId: string,
    campaignId: string,
    action: CampaignAction,
    now: Date,
    pausedReason?: string | null,
  ): Promise<{ campaign: Campaign; changed: boolean }>;
}
