import { Module } from '@nestjs/common';
import { CampaignModule } from '../campaign/campaign.module';
import { TargetModule } from '../target/target.module';
import { StepController } from './api/step.controller';
import { StepRepository } from './application/ports/step.repository';
import { StepService } from './application/step.service';
import { TypeOrmStepRepository } from './infrastructure/step.typeorm-repository';

/** Inbound step data: webhook steps (one target, batch) and EHR events, with their history. */
@Module({
  imports: [CampaignModule, TargetModule],
  controllers: [StepController],
  providers: [StepService, { provide: StepRepository, useClass: TypeOrmStepRepository }],
  exports: [StepService],
})
export class StepModule {}
