/**
 * The campaigns a campaign's retention policy may name. The campaign module implements it (a module
 * of a higher layer: docs/architecture.md), bound with the adapters, so that this module imports none.
 */
export abstract class RetentionCampaigns {
  /** NotFoundError (`Campaign <id> not found`) unless the campaign is the organization's. */
  abstract requireCampaign(organizationId: string, campaignId: string): Promise<void>;
}
