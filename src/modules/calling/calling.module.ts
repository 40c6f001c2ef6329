import { Module, Provider } from '@nestjs/common';
import { Clock } from '../../common/clock/clock.js';
import { AppConfig } from '../../config/app-config.js';
import { BlacklistModule } from '../blacklist/blacklist.module.js';
import { CallLogModule } from '../call-log/call-log.module.js';
import { ComplianceModule } from '../compliance/compliance.module.js';
import { CampaignModule } from '../campaign/campaign.module.js';
import { TargetModule } from '../target/target.module.js';
import { ProviderConnectionService } from '../provider-connection/application/provider-connection.service.js';
import { OrganizationModule } from '../organization/organization.module.js';
import { ProviderConnectionModule } from '../provider-connection/provider-connection.module.js';
import { WebhookModule } from '../webhook/webhook.module.js';
import { MessagingModule } from '../messaging/messaging.module.js';
import { RetentionModule } from '../retention/retention.module.js';
import { CallsController } from './api/calls.controller.js';
import { CampaignControlController } from './api/campaign-control.controller.js';
import { CampaignVariablesController } from './api/campaign-variables.controller.js';
import { LiveCallsController } from './api/live-calls.controller.js';
import { TelephonyEventsController } from './api/telephony-events.controller.js';
import { CallCompletion } from './application/call-completion.js';
import { CallEventIngestion } from './application/call-event-ingestion.js';
import { CallPlacement } from './application/call-placement.js';
import { CallRecovery } from './application/call-recovery.js';
import { CallingSettings } from './application/calling-settings.js';
import { CampaignControl } from './application/campaign-control.js';
import { CampaignStatsService } from './application/campaign-stats.service.js';
import { CampaignVariablesService } from './application/campaign-variables.service.js';
import { LiveCallService } from './application/live-call.service.js';
import { CallDispatcher } from './application/call-dispatcher.js';
import { AttemptEndings } from './application/attempt-endings.js';
import { CallClaim } from './application/call-claim.js';
import { CallEndingEffects } from './application/call-ending-effects.js';
import { CallDecisions } from './application/call-decisions.js';
import { CallStarts } from './application/call-starts.js';
import { CampaignBreaker } from './application/campaign-breaker.js';
import { CallEventStore } from './application/ports/call-event.store.js';
import { CallProvider, CallProviders } from '../telephony/application/ports/call-provider.js';
import { PlacementRate } from './application/ports/placement-rate.js';
import { SimulatedCallStore } from './application/ports/simulated-call.store.js';
import { TriggerService } from './application/trigger.service.js';
import { SqlCallEventStore } from './infrastructure/call-event-store.sql.js';
import { ConnectionCallProviders } from './infrastructure/connection-call-providers.js';
import { VoiceProviders } from '../provider-connection/application/ports/voice-provider.js';
import { CallingWorker } from './infrastructure/calling.worker.js';
import { HttpCallProvider } from './infrastructure/http-call-provider.js';
import { SqlPlacementRate } from './infrastructure/placement-rate.sql.js';
import { SimulatedCallDelivery } from './infrastructure/simulated-call-delivery.js';
import { SimulatedCallProvider } from './infrastructure/simulated-call-provider.js';
import { SqlSimulatedCallStore } from './infrastructure/simulated-call-store.sql.js';

/**
 * The process-wide provider, by CALL_PROVIDER: it places the calls of campaigns whose organization has
 * no provider connection.
 */
export function callProviderFor(config: AppConfig, simulator: SimulatedCallProvider): CallProvider {
  // CALL_PROVIDER is the process's own setting (`simulated` or `http`), not a connection type.
  return config.get('CALL_PROVIDER') === 'http'
    ? new HttpCallProvider({ agentUrl: config.get('AGENT_URL')!, secret: config.get('AGENT_SECRET')! })
    : simulator;
}

export function callingSettingsFor(config: AppConfig): CallingSettings {
  return new CallingSettings({
    maxCallMinutes: config.get('MAX_CALL_MINUTES'),
    placingDeadlineSeconds: config.get('CALL_PLACING_DEADLINE_SECONDS'),
    callsPerSecond: config.get('CALLS_PER_SECOND'),
    placementConcurrency: config.get('CALL_PLACEMENT_CONCURRENCY'),
    pollIntervalMs: config.get('CALLING_POLL_INTERVAL_SECONDS') * 1000,
    sweepIntervalMs: config.get('CALL_SWEEP_INTERVAL_SECONDS') * 1000,
    publicBaseUrl: config.get('PUBLIC_BASE_URL'),
  });
}

/**
 * Which provider places a campaign's calls and reads a connection's events: its provider connection,
 * else the process-wide CALL_PROVIDER. A port the root module binds, so a team can route calls to a
 * carrier of its own (docs/extending.md); no database of its own, so the testing module keeps it.
 */
export const CALL_PROVIDERS_BINDING: Provider = {
  provide: CallProviders,
  inject: [AppConfig, SimulatedCallProvider, ProviderConnectionService, VoiceProviders],
  useFactory: (
    config: AppConfig,
    simulator: SimulatedCallProvider,
    connections: ProviderConnectionService,
    providers: VoiceProviders,
  ) =>
    new ConnectionCallProviders(
      callProviderFor(config, simulator),
      simulator,
      connections,
      providers,
    ),
};

export const CALLING_ADAPTERS: Provider[] = [
  { provide: CallEventStore, useClass: SqlCallEventStore },
  { provide: PlacementRate, useClass: SqlPlacementRate },
  { provide: SimulatedCallStore, useClass: SqlSimulatedCallStore },
  CALL_PROVIDERS_BINDING,
];

/**
 * The calling engine: trigger, dispatcher, placement, provider events, completion, deadline sweep.
 * Places each campaign's calls through its provider connection (provider-connection module).
 * Changes targets only through the target module's `TargetTransitions`.
 */
@Module({
  imports: [
    CampaignModule,
    BlacklistModule,
    ComplianceModule,
    CallLogModule,
    TargetModule,
    WebhookModule,
    ProviderConnectionModule,
    OrganizationModule,
    MessagingModule,
    RetentionModule,
  ],
  controllers: [
    CallsController,
    TelephonyEventsController,
    CampaignControlController,
    LiveCallsController,
    CampaignVariablesController,
  ],
  providers: [
    {
      provide: SimulatedCallProvider,
      inject: [AppConfig, SimulatedCallStore, Clock],
      useFactory: (config: AppConfig, store: SimulatedCallStore, clock: Clock) =>
        new SimulatedCallProvider(store, clock, config.get('SIMULATED_CALL_SECONDS')),
    },
    { provide: CallingSettings, inject: [AppConfig], useFactory: callingSettingsFor },
    TriggerService,
    CampaignControl,
    CampaignStatsService,
    CampaignVariablesService,
    LiveCallService,
    AttemptEndings,
    CallEndingEffects,
    CallCompletion,
    CallEventIngestion,
    CallPlacement,
    CallDecisions,
    CallStarts,
    CallClaim,
    CampaignBreaker,
    CallDispatcher,
    CallRecovery,
    CallingWorker,
    SimulatedCallDelivery,
  ],
  // For the root module's CallProviders binding.
  exports: [SimulatedCallProvider],
})
export class CallingModule {}
