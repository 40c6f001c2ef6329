import { Module, Provider } from '@nestjs/common';
import { CallLogController } from './api/call-log.controller.js';
import { CallLogService } from './application/call-log.service.js';
import { CallLogRepository } from './application/ports/call-log.repository.js';
import { SqlCallLogRepository } from './infrastructure/call-log-repository.sql.js';
import { CallLogData } from '../retention/application/ports/patient-data-holders.js';
import { SqlCallLogData } from './infrastructure/call-log-data.sql.js';

export const CALL_LOG_ADAPTERS: Provider[] = [
  { provide: CallLogData, useClass: SqlCallLogData },
  { provide: CallLogRepository, useClass: SqlCallLogRepository },
];

/** Call logs: read by the API, written by the calling engine through `CallLogService`. */
@Module({
  controllers: [CallLogController],
  providers: [CallLogService],
  exports: [CallLogService],
})
export class CallLogModule {}
