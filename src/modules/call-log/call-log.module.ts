import { Module, Provider } from '@nestjs/common';
import { CallLogController } from './api/call-log.controller.js';
import { CallLogService } from './application/call-log.service.js';
import { CallLogRepository } from './application/ports/call-log.repository.js';
import { SqlCallLogRepository } from './infrastructure/call-log-repository.sql.js';
import { CallLogCountFoldingWorker } from './infrastructure/call-log-count-folding.worker.js';
import { AppConfig } from '../../config/app-config.js';
import { CountFoldingSettings } from '../../common/persistence/count-folding.js';
import { CallLogData } from '../retention/application/ports/patient-data-holders.js';
import { SqlCallLogData } from './infrastructure/call-log-data.sql.js';

export const CALL_LOG_ADAPTERS: Provider[] = [
  { provide: CallLogData, useClass: SqlCallLogData },
  { provide: CallLogRepository, useClass: SqlCallLogRepository },
];

/** Call logs: read by the API, written by the calling engine through `CallLogService`. */
@Module({
  controllers: [CallLogController],
  providers: [
    CallLogService,
    CallLogCountFoldingWorker,
    {
      provide: CountFoldingSettings,
      inject: [AppConfig],
      useFactory: (config: AppConfig) =>
        new CountFoldingSettings(config.get('COUNT_FOLD_INTERVAL_SECONDS') * 1000),
    },
  ],
  exports: [CallLogService],
})
export class CallLogModule {}
