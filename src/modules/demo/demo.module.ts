import { Module } from '@nestjs/common';
import { CampaignModule } from '../campaign/campaign.module.js';
import { ComplianceModule } from '../compliance/compliance.module.js';
import { OrganizationModule } from '../organization/organization.module.js';
import { DemoSeeder } from './demo-seeder.js';

@Module({
  imports: [OrganizationModule, CampaignModule, ComplianceModule],
  providers: [DemoSeeder],
  exports: [DemoSeeder],
})
export class DemoModule {}
