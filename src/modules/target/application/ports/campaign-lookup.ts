import type { Campaign } from '../../../campaign/domain/campaign';

/**
 * The campaign a request names, checked for tenancy. Provided by the CampaignModule's service
 * (`useExisting: CampaignService`); a port so that the target use cases test with a plain fake.
 */
export abstract class CampaignLookup {
  /** The organization's campaign, or NotFoundError (malformed ids and other tenants included). */
  abstract get(organizationId: string, campaignId: string): Promise<Campaign>;
}
