import { Campaign } from '../../domain/campaign';

export type NewCampaign = Omit<Campaign, 'id' | 'createdAt' | 'updatedAt'>;
export type CampaignChanges = Partial<
  Omit<Campaign, 'id' | 'organizationId' | 'webhookSecret' | 'createdAt' | 'updatedAt'>
>;

export type CampaignUpdateResult =
  | { kind: 'updated'; campaign: Campaign }
  | { kind: 'not_found' }
  | { kind: 'entry_step_not_in_steps' }
  | { kind: 'waiting_step_removed' };

export abstract class CampaignRepository {
  abstract create(campaign: NewCampaign): Promise<Campaign>;
  abstract findById(id: string): Promise<Campaign | null>;
  /** A page of the organization's campaigns in (created_at, id) order, and their total. */
  abstract list(
    organizationId: string,
    offset: number,
    limit: number,
  ): Promise<{ items: Campaign[]; total: number }>;
  /**
   * Applies the changes in one conditional statement, so that concurrent updates cannot leave the
   * campaign inconsistent: the resulting `entry_step` must be one of the resulting steps, and a change
   * of `steps` must keep every step that targets are `Waiting` at.
   */
  abstract update(
    organizationId: string,
    id: string,
    changes: CampaignChanges,
  ): Promise<CampaignUpdateResult>;
  abstract setWebhookSecret(
    organizationId: string,
    id: string,
    secret: string,
  ): Promise<Campaign | null>;
}
