import { Injectable } from '@nestjs/common';
import { NotFoundError } from '../../../common/errors/domain-errors.js';
import { isUuid } from '../../../common/ids/canonical-uuid.js';
import { OrganizationCampaigns } from '../../organization/application/ports/organization-campaigns.js';
import { RetentionCampaigns } from '../../retention/application/ports/retention-campaigns.js';
import { CampaignRepository } from './ports/campaign.repository.js';

/**
 * Which campaigns are an organization's, for the modules below this one that need to know without
 * importing it: keys limited to campaigns (organization) and campaigns' retention policies (retention).
 */
@Injectable()
export class CampaignOwnership implements OrganizationCampaigns, RetentionCampaigns {
  constructor(private readonly campaigns: CampaignRepository) {}

  async existing(organizationId: string, campaignIds: string[]): Promise<Set<string>> {
    const found = new Set<string>();
    // At most 100 ids (the key's request): one lookup each, by primary key.
    for (const id of new Set(campaignIds)) {
      if (await this.owns(organizationId, id)) found.add(id);
    }
    return found;
  }

  async requireCampaign(organizationId: string, campaignId: string): Promise<void> {
    if (!(await this.owns(organizationId, campaignId)))
      throw new NotFoundError(`Campaign ${campaignId} not found`);
  }

  private async owns(organizationId: string, campaignId: string): Promise<boolean> {
    if (!isUuid(campaignId)) return false;
    const campaign = await this.campaigns.findById(campaignId);
    return campaign !== null && campaign.organizationId === organizationId;
  }
}
