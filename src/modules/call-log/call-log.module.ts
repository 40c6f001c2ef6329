import { Module } from '@nestjs/common';
import { CallLogController } from './api/call-log.controller';
import { CallLogService } from './application/call-log.service';
import { CallLogRepository } from './application/ports/call-log.repository';
import { TypeOrmCallLogRepository } from './infrastructure/call-log.typeorm-repository';

/** Call logs: read by the API, written by the calling engine through `CallLogService`. */
@Module({
  controllers: [CallLogController],
  providers: [CallLogService, { provide: CallLogRepository, useClass: TypeOrmCallLogRepository }],
  exports: [CallLogService],
})
export class CallLogModule {}
