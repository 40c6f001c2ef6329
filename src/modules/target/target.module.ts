import { Module } from '@nestjs/common';
import { CampaignModule } from '../campaign/campaign.module';
import { WebhookModule } from '../webhook/webhook.module';
import { TargetImportController } from './api/target-import.controller';
import { TargetImportRepository } from './application/ports/target-import.repository';
import { TargetImportService } from './application/target-import.service';
import { TargetImportSettings, TargetImportWorker } from './application/target-import.worker';
import { AppConfig } from '../../config/app-config';
import { TypeOrmTargetImportRepository } from './infrastructure/target-import.typeorm-repository';
import { TargetController } from './api/target.controller';
import { TargetTransitions } from './application/ports/target-transitions';
import { TargetRepository } from './application/ports/target.repository';
import { TargetService } from './application/target.service';
import { TargetEventLog } from './application/ports/target-event-log';
import { TargetTimelineService } from './application/target-timeline.service';
import { SqlTargetEventLog } from './infrastructure/target-event-log.sql-adapter';
import { SqlTargetTransitions } from './infrastructure/target-transitions.sql-adapter';
import { TypeOrmTargetRepository } from './infrastructure/target.typeorm-repository';

/**
 * Targets: add (dedupe, launch), CSV import (owns `target_imports` and its staging rows), delete, read, input-data edits and the paged campaign lists. Owns the
 * `targets` table: other modules change a target's status only through the exported `TargetTransitions`.
 * Owns `target_events` (a target's timeline): other modules say who and why through `TargetEventLog`.
 */
@Module({
  imports: [CampaignModule, WebhookModule],
  controllers: [TargetController, TargetImportController],
  providers: [
    TargetService,
    { provide: TargetRepository, useClass: TypeOrmTargetRepository },
    { provide: TargetTransitions, useClass: SqlTargetTransitions },
    { provide: TargetEventLog, useClass: SqlTargetEventLog },
    TargetTimelineService,
    TargetImportService,
    { provide: TargetImportRepository, useClass: TypeOrmTargetImportRepository },
    TargetImportWorker,
    {
      provide: TargetImportSettings,
      inject: [AppConfig],
      useFactory: (config: AppConfig) =>
        new TargetImportSettings({
          recoveryMs: config.get('IMPORT_RECOVERY_SECONDS') * 1000,
          runRecovery: config.get('ROLE') !== 'api',
        }),
    },
  ],
  exports: [TargetService, TargetTransitions, TargetEventLog],
})
export class TargetModule {}
