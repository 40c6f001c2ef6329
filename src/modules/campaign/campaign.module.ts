import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { BlacklistModule } from '../blacklist/blacklist.module';
import { CampaignController } from './api/campaign.controller';
import { CampaignReader } from './application/campaign-reader';
import { CampaignService } from './application/campaign.service';
import { CampaignRepository } from './application/ports/campaign.repository';
import { CampaignOrmEntity } from './infrastructure/campaign.orm-entity';
import { TypeOrmCampaignRepository } from './infrastructure/campaign.typeorm-repository';

/** Campaigns and their settings (calling window, attempts, steps, blacklists, webhook URL and secret). */
@Module({
  imports: [TypeOrmModule.forFeature([CampaignOrmEntity]), BlacklistModule],
  controllers: [CampaignController],
  providers: [
    CampaignService,
    { provide: CampaignRepository, useClass: TypeOrmCampaignRepository },
    { provide: CampaignReader, useExisting: CampaignService },
  ],
  exports: [CampaignService, CampaignReader],
})
export class CampaignModule {}
