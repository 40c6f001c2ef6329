import type { Campaign } from '../../../campaign/domain/campaign';

/** The campaign settings the engine reads (adapter: CampaignService). */
export abstract class CallingCampaigns {
  /** The organization's campaign or NotFoundError (also for malformed ids and other tenants). */
  abstract get(organizationId: string, campaignId: string): Promise<Campaign>;
  /** No tenancy: for workers acting on a job. */
  abstract findById(campaignId: string): Promise<Campaign | null>;
}

/** The blacklists a campaign applies (adapter: BlacklistService). */
export abstract class NumberBlacklist {
  /** The numbers among `phoneNumbers` that any of the blacklists holds. */
  abstract findBlacklisted(blacklistIds: string[], phoneNumbers: string[]): Promise<Set<string>>;
}
