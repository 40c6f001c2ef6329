import { Module } from '@nestjs/common';
import { CampaignModule } from '../campaign/campaign.module.js';
import { TargetModule } from '../target/target.module.js';
import { StepController } from './api/step.controller.js';
import { StepService } from './application/step.service.js';

/**
 * Inbound step data: webhook steps (one target, batch) and EHR events. It owns no table: the target
 * module's `TargetStepData` writes the data and its history into the targets.
 */
@Module({
  imports: [CampaignModule, TargetModule],
  controllers: [StepController],
  providers: [StepService],
  exports: [StepService],
})
export class StepModule {}
