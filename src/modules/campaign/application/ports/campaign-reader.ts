import type { Campaign } from '../../domain/campaign';

/**
 * Reading campaigns from other modules (calling, step, target). CampaignModule provides it with
 * `useExisting: CampaignService`; a port so that their use cases test with a plain fake.
 */
export abstract class CampaignReader {
  /** The organization's campaign, or NotFoundError (also for malformed ids and other tenants). */
  abstract get(organizationId: string, campaignId: string): Promise<Campaign>;
  /** No tenancy check: for workers acting on a job that already belongs to the campaign. */
  abstract findById(campaignId: string): Promise<Campaign | null>;
}
