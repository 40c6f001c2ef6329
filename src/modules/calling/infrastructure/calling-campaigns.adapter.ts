import { Injectable } from '@nestjs/common';
import { BlacklistService } from '../../blacklist/application/blacklist.service';
import { CampaignService } from '../../campaign/application/campaign.service';
import { Campaign } from '../../campaign/domain/campaign';
import { CallingCampaigns, NumberBlacklist } from '../application/ports/calling-campaigns';

@Injectable()
export class CampaignServiceAdapter extends CallingCampaigns {
  constructor(private readonly campaigns: CampaignService) {
    super();
  }

  get(organizationId: string, campaignId: string): Promise<Campaign> {
    return this.campaigns.get(organizationId, campaignId);
  }

  findById(campaignId: string): Promise<Campaign | null> {
    return this.campaigns.findById(campaignId);
  }
}

@Injectable()
export class BlacklistServiceAdapter extends NumberBlacklist {
  constructor(private readonly blacklists: BlacklistService) {
    super();
  }

  findBlacklisted(blacklistIds: string[], phoneNumbers: string[]): Promise<Set<string>> {
    return this.blacklists.findBlacklisted(blacklistIds, phoneNumbers);
  }
}
