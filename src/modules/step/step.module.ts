import { Module, Provider } from '@nestjs/common';
import { CampaignModule } from '../campaign/campaign.module.js';
import { TargetModule } from '../target/target.module.js';
import { StepController } from './api/step.controller.js';
import { StepRepository } from './application/ports/step.repository.js';
import { StepService } from './application/step.service.js';
import { TypeOrmStepRepository } from './infrastructure/step.typeorm-repository.js';

export const STEP_ADAPTERS: Provider[] = [
  { provide: StepRepository, useClass: TypeOrmStepRepository },
];

/** Inbound step data: webhook steps (one target, batch) and EHR events, with their history. */
@Module({
  imports: [CampaignModule, TargetModule],
  controllers: [StepController],
  providers: [StepService],
  exports: [StepService],
})
export class StepModule {}
