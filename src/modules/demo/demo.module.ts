import { Module } from '@nestjs/common';
import { CampaignModule } from '../campaign/campaign.module.js';
import { OrganizationModule } from '../organization/organization.module.js';
import { DemoSeeder } from './demo-seeder.js';

@Module({
  imports: [OrganizationModule, CampaignModule],
  providers: [DemoSeeder],
  exports: [DemoSeeder],
})
export class DemoModule {}
