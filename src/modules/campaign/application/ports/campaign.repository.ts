import { Campaign } from '../../domain/campaign';

export type NewCampaign = Omit<Campaign, 'id' | 'createdAt' | 'updatedAt'>;
export type CampaignChanges = Partial<
  Omit<Campaign, 'id' | 'organizationId' | 'webhookSecret' | 'createdAt' | 'updatedAt'>
>;

export abstract class CampaignRepository {
  abstract create(campaign: NewCampaign): Promise<Campaign>;
  abstract findById(id: string): Promise<Campaign | null>;
  /** A page of the organization's campaigns in (created_at, id) order, and their total. */
  abstract list(
    organizationId: string,
    offset: number,
    limit: number,
  ): Promise<{ items: Campaign[]; total: number }>;
  /** Applies the changes and returns the campaign, or null when it is not the organization's. */
  abstract update(
    organizationId: string,
    id: string,
    changes: CampaignChanges,
  ): Promise<Campaign | null>;
  abstract setWebhookSecret(
    organizationId: string,
    id: string,
    secret: string,
  ): Promise<Campaign | null>;
}
