import { Module } from '@nestjs/common';
import { CallingModule } from '../calling/calling.module';
import { CampaignModule } from '../campaign/campaign.module';
import { StepController } from './api/step.controller';
import { StepRepository } from './application/ports/step.repository';
import { StepService } from './application/step.service';
import { TypeOrmStepRepository } from './infrastructure/step.typeorm-repository';

/** Inbound step data: webhook steps (one target, batch) and EHR events, with their history. */
@Module({
  imports: [CampaignModule, CallingModule],
  controllers: [StepController],
  providers: [StepService, { provide: StepRepository, useClass: TypeOrmStepRepository }],
  exports: [StepService],
})
export class StepModule {}
