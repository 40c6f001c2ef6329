import { Module } from '@nestjs/common';
import { AppConfig } from '../../config/app-config';
import { BlacklistModule } from '../blacklist/blacklist.module';
import { CallLogModule } from '../call-log/call-log.module';
import { CampaignModule } from '../campaign/campaign.module';
import { CallScheduler } from '../target/application/ports/call-scheduler';
import { WebhookModule } from '../webhook/webhook.module';
import { CallsController } from './api/calls.controller';
import { CallingSettings } from './application/calling-settings';
import { DispatchService } from './application/dispatch.service';
import { JobCallScheduler } from './application/job-call-scheduler';
import { CallProvider } from './application/ports/call-provider';
import { NumberBlacklist } from './application/ports/number-blacklist';
import { DispatchRepository } from './application/ports/dispatch.repository';
import { TriggerService } from './application/trigger.service';
import { BlacklistServiceAdapter } from './infrastructure/blacklist-service.adapter';
import { CallingWorker } from './infrastructure/calling.worker';
import { TypeOrmDispatchRepository } from './infrastructure/dispatch.typeorm-repository';
import { SimulatedCallProvider } from './infrastructure/simulated-call-provider';

/** Picks the telephony adapter; a real carrier adds a case here and nothing else changes. */
export function callProviderFor(config: AppConfig): CallProvider {
  switch (config.get('CALL_PROVIDER')) {
    case 'simulated':
    default:
      return new SimulatedCallProvider(config.get('SIMULATED_CALL_SECONDS'));
  }
}

export function callingSettingsFor(config: AppConfig): CallingSettings {
  const lease = config.get('CALL_LEASE_SECONDS');
  return new CallingSettings(
    lease,
    config.get('STALE_CALL_MINUTES'),
    60,
    // Long enough that a backlog still being worked through is not re-enqueued.
    Math.max(10 * lease, 20),
    Math.max(1, lease / 2),
  );
}

/**
 * The calling engine: trigger, dispatch, telephony. Exports the `CallScheduler` the target and step
 * modules use, so it must not import them (they import this module).
 */
@Module({
  imports: [CampaignModule, BlacklistModule, CallLogModule, WebhookModule],
  controllers: [CallsController],
  providers: [
    { provide: CallScheduler, useClass: JobCallScheduler },
    { provide: DispatchRepository, useClass: TypeOrmDispatchRepository },
    { provide: NumberBlacklist, useClass: BlacklistServiceAdapter },
    { provide: CallProvider, inject: [AppConfig], useFactory: callProviderFor },
    { provide: CallingSettings, inject: [AppConfig], useFactory: callingSettingsFor },
    TriggerService,
    DispatchService,
    CallingWorker,
  ],
  exports: [CallScheduler],
})
export class CallingModule {}
