import type { Campaign } from '../../../campaign/domain/campaign';

/**
 * The campaigns the step endpoints post into, read through the campaign module's service (bound with
 * `useExisting: CampaignService`), so the step service can be unit-tested without it.
 */
export abstract class CampaignDirectory {
  /** Throws NotFoundError for an unknown campaign, one of another organization, or a malformed id. */
  abstract get(organizationId: string, campaignId: string): Promise<Campaign>;
}
