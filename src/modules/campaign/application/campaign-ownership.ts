import { Injectable } from '@nestjs/common';
import { NotFoundError } from '../../../common/errors/domain-errors.js';
import { OrganizationCampaigns } from '../../organization/application/ports/organization-campaigns.js';
import { CampaignReader } from './ports/campaign-reader.js';

/** The organization module's view of which campaigns an organization has (keys limited to campaigns). */
@Injectable()
export class CampaignOwnership implements OrganizationCampaigns {
  constructor(private readonly campaigns: CampaignReader) {}

  async existing(organizationId: string, campaignIds: string[]): Promise<Set<string>> {
    const found = new Set<string>();
    // At most 100 ids (the key's DTO): one lookup each, by primary key.
    for (const id of new Set(campaignIds)) {
      try {
        await this.campaigns.get(organizationId, id);
        found.add(id);
      } catch (err) {
        if (!(err instanceof NotFoundError)) throw err;
      }
    }
    return found;
  }
}
