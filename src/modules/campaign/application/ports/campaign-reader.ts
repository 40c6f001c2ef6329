import type { Tx } from '../../../../common/persistence/unit-of-work.js';
import type { Campaign, CampaignState } from '../../domain/campaign.js';

/**
 * Reading campaigns from other modules (calling, step, target). CampaignModule provides it with
 * `useExisting: CampaignService`; a port so that their use cases test with a plain fake.
 */
export abstract class CampaignReader {
  /** The organization's campaign, or NotFoundError (also for malformed ids and other tenants). */
  abstract get(organizationId: string, campaignId: string): Promise<Campaign>;
  /** No tenancy check: for workers acting on a job that already belongs to the campaign. */
  abstract findById(campaignId: string): Promise<Campaign | null>;
  /**
   * `findById` as this process read it at most a second ago (changes made through this process show
   * at once): for words shown to people, such as a target's waiting_reason, never for a decision.
   * The result is shared: do not change it.
   */
  abstract findRecent(campaignId: string): Promise<Readonly<Campaign> | null>;
  /**
   * The campaign's committed state, read in `tx` with a share lock on its row until `tx` ends: a pause
   * or cancel under way is waited for, and one that starts later waits for `tx` (null: no campaign).
   */
  abstract lockedState(tx: Tx, campaignId: string): Promise<CampaignState | null>;
  /** `lockedState` of many campaigns in one read (absent from the map: no such campaign). */
  abstract lockedStates(tx: Tx, campaignIds: string[]): Promise<Map<string, CampaignState>>;
  /** Every organization's paused campaigns (the dispatcher leaves their due targets alone). */
  abstract pausedIds(): Promise<string[]>;
}
