import { Module, Provider } from '@nestjs/common';
import { BlacklistModule } from '../blacklist/blacklist.module.js';
import { ProviderConnectionModule } from '../provider-connection/provider-connection.module.js';
import { CampaignController } from './api/campaign.controller.js';
import { OrganizationCampaigns } from '../organization/application/ports/organization-campaigns.js';
import { RetentionCampaigns } from '../retention/application/ports/retention-campaigns.js';
import { CampaignOwnership } from './application/campaign-ownership.js';
import { CampaignReader } from './application/ports/campaign-reader.js';
import { CampaignStateChanges } from './application/ports/campaign-state-changes.js';
import { CampaignService } from './application/campaign.service.js';
import { CampaignRepository } from './application/ports/campaign.repository.js';
import { SqlCampaignRepository } from './infrastructure/campaign-repository.sql.js';

export const CAMPAIGN_ADAPTERS: Provider[] = [
  { provide: CampaignRepository, useClass: SqlCampaignRepository },
  // For the retention module, a layer below (it imports no campaign code).
  { provide: RetentionCampaigns, useClass: CampaignOwnership },
];

/** Campaigns and their settings (calling window, attempts, steps, blacklists, webhook URL and secret). */
@Module({
  imports: [BlacklistModule, ProviderConnectionModule],
  controllers: [CampaignController],
  providers: [
    CampaignService,
    { provide: CampaignReader, useExisting: CampaignService },
    { provide: CampaignStateChanges, useExisting: CampaignService },
    { provide: OrganizationCampaigns, useClass: CampaignOwnership },
  ],
  exports: [CampaignService, CampaignReader, CampaignStateChanges],
})
export class CampaignModule {}
