import { Module } from '@nestjs/common';
import { CampaignModule } from '../campaign/campaign.module.js';
import { TargetModule } from '../target/target.module.js';
import { StepController } from './api/step.controller.js';
import { StepRepository } from './application/ports/step.repository.js';
import { StepService } from './application/step.service.js';
import { TypeOrmStepRepository } from './infrastructure/step.typeorm-repository.js';

/** Inbound step data: webhook steps (one target, batch) and EHR events, with their history. */
@Module({
  imports: [CampaignModule, TargetModule],
  controllers: [StepController],
  providers: [StepService, { provide: StepRepository, useClass: TypeOrmStepRepository }],
  exports: [StepService],
})
export class StepModule {}
