import { Module } from '@nestjs/common';
import { CallingModule } from '../calling/calling.module';
import { CampaignModule } from '../campaign/campaign.module';
import { TargetController } from './api/target.controller';
import { TargetRepository } from './application/ports/target.repository';
import { TargetService } from './application/target.service';
import { TypeOrmTargetRepository } from './infrastructure/target.typeorm-repository';

/** Targets: add (dedupe, launch), delete, read, input-data edits and the paged campaign lists. */
@Module({
  imports: [CampaignModule, CallingModule],
  controllers: [TargetController],
  providers: [TargetService, { provide: TargetRepository, useClass: TypeOrmTargetRepository }],
  exports: [TargetService],
})
export class TargetModule {}
