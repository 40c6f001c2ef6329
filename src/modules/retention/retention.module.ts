import { Module, Provider } from '@nestjs/common';
import { AppConfig } from '../../config/app-config.js';
import { PatientController } from './api/patient.controller.js';
import { RetentionController } from './api/retention.controller.js';
import { PatientRecordService } from './application/patient-record.service.js';
import { PatientDataCopies } from './application/patient-data-copies.js';
import { Redactor } from './application/ports/redactor.js';
import { RetentionStore } from './application/ports/retention.store.js';
import { PurgePacing, RetentionPurge } from './application/retention-purge.js';
import { RetentionService } from './application/retention.service.js';
import { TranscriptRedactionService } from './application/transcript-redaction.service.js';
import { PatternRedactor } from './infrastructure/pattern-redactor.js';
import { SqlRetentionStore } from './infrastructure/retention-store.sql.js';
import { RetentionWorker } from './infrastructure/retention.worker.js';

export const RETENTION_ADAPTERS: Provider[] = [
  { provide: RetentionStore, useClass: SqlRetentionStore },
  { provide: Redactor, useClass: PatternRedactor },
];

/**
 * Patient data's lifecycle (docs/compliance.md, "Retention"): the retention policy and its purge job,
 * redaction before storage (the calling and messaging modules call `TranscriptRedactionService`), and one
 * person's record read and erased across campaigns. It imports no other module: the modules that
 * hold a patient's data implement its ports (`patient-data-holders.ts`, `RetentionCampaigns`).
 */
@Module({
  controllers: [RetentionController, PatientController],
  providers: [
    RetentionService,
    RetentionPurge,
    PatientRecordService,
    TranscriptRedactionService,
    PatientDataCopies,
    RetentionWorker,
    {
      provide: PurgePacing,
      inject: [AppConfig],
      useFactory: (config: AppConfig) => new PurgePacing(config.get('RETENTION_PURGE_DUTY_CYCLE')),
    },
  ],
  exports: [TranscriptRedactionService, RetentionPurge, RetentionService, PatientRecordService],
})
export class RetentionModule {}
