import { ComplianceService } from '../compliance/application/compliance.service.js';
import { PhoneCountries } from './application/ports/phone-countries.js';
import { Module, Provider } from '@nestjs/common';
import { ComplianceModule } from '../compliance/compliance.module.js';
import { CampaignModule } from '../campaign/campaign.module.js';
import { WebhookModule } from '../webhook/webhook.module.js';
import { TargetImportController } from './api/target-import.controller.js';
import { TargetImportRepository } from './application/ports/target-import.repository.js';
import { TargetImportService } from './application/target-import.service.js';
import { TargetImportRun } from './application/target-import-run.js';
import { TargetImportSettings, TargetImportWorker } from './infrastructure/target-import.worker.js';
import { AppConfig } from '../../config/app-config.js';
import { SqlTargetImportRepository } from './infrastructure/target-import-repository.sql.js';
import { TargetController } from './api/target.controller.js';
import { TargetTransitions } from './application/ports/target-transitions.js';
import { TargetRepository } from './application/ports/target.repository.js';
import { TargetService } from './application/target.service.js';
import { TargetEventLog } from './application/ports/target-event-log.js';
import { TargetTimelineService } from './application/target-timeline.service.js';
import { SqlTargetEventLog } from './infrastructure/target-event-log.sql.js';
import { SqlTargetTransitions } from './infrastructure/target-transitions.sql.js';
import { TargetStepData } from './application/ports/target-step-data.js';
import { SqlTargetStepData } from './infrastructure/target-step-data.sql.js';
import { SqlTargetRepository } from './infrastructure/target-repository.sql.js';
import { TargetData } from '../retention/application/ports/patient-data-holders.js';
import { SqlTargetData } from './infrastructure/target-data.sql.js';

export const TARGET_ADAPTERS: Provider[] = [
  { provide: TargetData, useClass: SqlTargetData },
  { provide: TargetRepository, useClass: SqlTargetRepository },
  { provide: TargetTransitions, useClass: SqlTargetTransitions },
  { provide: TargetEventLog, useClass: SqlTargetEventLog },
  { provide: TargetStepData, useClass: SqlTargetStepData },
  { provide: TargetImportRepository, useClass: SqlTargetImportRepository },
];

/**
 * Targets: add (dedupe, launch), CSV import (owns `target_imports` and its staging rows), delete, read, input-data edits and the paged campaign lists. Owns the
 * `targets` table: every write to it is this module's; other modules change a target's status only through
 * the exported `TargetTransitions` and merge step data (with its history, `target_step_events`) only
 * through `TargetStepData`.
 * Owns `target_events` (a target's timeline): other modules say who and why through `TargetEventLog`.
 */
@Module({
  imports: [CampaignModule, WebhookModule, ComplianceModule],
  controllers: [TargetController, TargetImportController],
  providers: [
    TargetService,
    TargetTimelineService,
    TargetImportService,
    TargetImportRun,
    TargetImportWorker,
    {
      provide: PhoneCountries,
      inject: [ComplianceService],
      useFactory: (compliance: ComplianceService): PhoneCountries => ({
        organizationCountry: async (organizationId) =>
          (await compliance.policy(organizationId)).defaultCountry,
      }),
    },
    {
      provide: TargetImportSettings,
      inject: [AppConfig],
      useFactory: (config: AppConfig) =>
        new TargetImportSettings({
          recoveryMs: config.get('IMPORT_RECOVERY_SECONDS') * 1000,
          uploadStallMs: config.get('IMPORT_UPLOAD_STALL_SECONDS') * 1000,
          runRecovery: config.get('ROLE') !== 'api',
        }),
    },
  ],
  exports: [TargetService],
})
export class TargetModule {}
