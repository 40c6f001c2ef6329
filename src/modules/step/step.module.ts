import { Module } from '@nestjs/common';
import { CallingModule } from '../calling/calling.module';
import { CampaignModule } from '../campaign/campaign.module';
import { CampaignService } from '../campaign/application/campaign.service';
import { StepController } from './api/step.controller';
import { CampaignDirectory } from './application/ports/campaign-directory';
import { StepRepository } from './application/ports/step.repository';
import { StepService } from './application/step.service';
import { TypeOrmStepRepository } from './infrastructure/step.typeorm-repository';

/** Inbound step data: webhook steps (one target, batch) and EHR events, with their history. */
@Module({
  imports: [CampaignModule, CallingModule],
  controllers: [StepController],
  providers: [
    StepService,
    { provide: StepRepository, useClass: TypeOrmStepRepository },
    { provide: CampaignDirectory, useExisting: CampaignService },
  ],
  exports: [StepService],
})
export class StepModule {}
