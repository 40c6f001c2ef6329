import { Module } from '@nestjs/common';
import { CampaignModule } from '../campaign/campaign.module';
import { TargetController } from './api/target.controller';
import { TargetTransitions } from './application/ports/target-transitions';
import { TargetRepository } from './application/ports/target.repository';
import { TargetService } from './application/target.service';
import { SqlTargetTransitions } from './infrastructure/target-transitions.sql-adapter';
import { TypeOrmTargetRepository } from './infrastructure/target.typeorm-repository';

/**
 * Targets: add (dedupe, launch), delete, read, input-data edits and the paged campaign lists. Owns the
 * `targets` table: other modules change a target's status only through the exported `TargetTransitions`.
 */
@Module({
  imports: [CampaignModule],
  controllers: [TargetController],
  providers: [
    TargetService,
    { provide: TargetRepository, useClass: TypeOrmTargetRepository },
    { provide: TargetTransitions, useClass: SqlTargetTransitions },
  ],
  exports: [TargetService, TargetTransitions],
})
export class TargetModule {}
