import { Provider } from '@nestjs/common';
import { CountFoldingSettings, CountFoldingSweep } from './common/persistence/count-folding.js';
import { ExclusiveRunner } from './common/persistence/exclusive-runner.js';
import { AppConfig } from './config/app-config.js';
import { CallLogRepository } from './modules/call-log/application/ports/call-log.repository.js';
import { TargetRepository } from './modules/target/application/ports/target.repository.js';

/**
 * The one folding job of the count tables (docs/architecture.md, "Count folding"): one timer and one
 * lock for the target module's three tables and the call-log module's two, each folded by its
 * owner's repository (`foldCounts`). Bound by the root module, which binds both repositories.
 */
export const COUNT_FOLDING_PROVIDERS: Provider[] = [
  {
    provide: CountFoldingSettings,
    inject: [AppConfig],
    useFactory: (config: AppConfig) =>
      new CountFoldingSettings(config.get('COUNT_FOLD_INTERVAL_SECONDS') * 1000),
  },
  {
    provide: CountFoldingSweep,
    inject: [TargetRepository, CallLogRepository, ExclusiveRunner, CountFoldingSettings],
    useFactory: (
      targets: TargetRepository,
      logs: CallLogRepository,
      exclusive: ExclusiveRunner,
      settings: CountFoldingSettings,
    ) =>
      new CountFoldingSweep(
        'count-folding',
        [() => targets.foldCounts(), () => logs.foldCounts()],
        exclusive,
        settings,
      ),
  },
];
