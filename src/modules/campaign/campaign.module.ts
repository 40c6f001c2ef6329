import { Module } from '@nestjs/common';
import { BlacklistModule } from '../blacklist/blacklist.module';
import { ProviderConnectionModule } from '../provider-connection/provider-connection.module';
import { CampaignController } from './api/campaign.controller';
import { CampaignReader } from './application/ports/campaign-reader';
import { CampaignService } from './application/campaign.service';
import { CampaignRepository } from './application/ports/campaign.repository';
import { TypeOrmCampaignRepository } from './infrastructure/campaign.typeorm-repository';

/** Campaigns and their settings (calling window, attempts, steps, blacklists, webhook URL and secret). */
@Module({
  imports: [BlacklistModule, ProviderConnectionModule],
  controllers: [CampaignController],
  providers: [
    CampaignService,
    { provide: CampaignRepository, useClass: TypeOrmCampaignRepository },
    { provide: CampaignReader, useExisting: CampaignService },
  ],
  exports: [CampaignService, CampaignReader],
})
export class CampaignModule {}
