import { Injectable, OnModuleDestroy, OnModuleInit } from '@nestjs/common';
import {
  CountFoldingSettings,
  CountFoldingSweep,
} from '../../../common/persistence/count-folding.js';
import { ExclusiveRunner } from '../../../common/persistence/exclusive-runner.js';
import { CallLogRepository } from '../application/ports/call-log.repository.js';

/** The folding job of the call-log module's count and hour deltas (common/persistence/count-folding.ts). */
@Injectable()
export class CallLogCountFoldingWorker implements OnModuleInit, OnModuleDestroy {
  private readonly sweep: CountFoldingSweep;

  constructor(logs: CallLogRepository, exclusive: ExclusiveRunner, settings: CountFoldingSettings) {
    this.sweep = new CountFoldingSweep(
      'call-log-count-folding',
      () => logs.foldCounts(),
      exclusive,
      settings,
    );
  }

  onModuleInit(): void {
    this.sweep.start();
  }

  onModuleDestroy(): Promise<void> {
    return this.sweep.stop();
  }
}
