import { Module } from '@nestjs/common';
import { CampaignModule } from '../campaign/campaign.module';
import { OrganizationModule } from '../organization/organization.module';
import { DemoSeeder } from './demo-seeder';

@Module({
  imports: [OrganizationModule, CampaignModule],
  providers: [DemoSeeder],
  exports: [DemoSeeder],
})
export class DemoModule {}
