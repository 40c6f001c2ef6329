import { DynamicModule, Module, Type } from '@nestjs/common';
import { OrganizationModule } from '../modules/organization/organization.module.js';
import { HTTP_ENHANCERS, DOMAIN_MODULES } from '../campaign-calling.module.js';
import { Clock } from '../common/clock/clock.js';
import { RouteTable } from '../common/http/route-table.js';
import {
  AdapterBinding,
  adapterProvider,
  providedToken,
  withAdapters,
} from '../common/adapters/adapter-binding.js';
import { CALL_PROVIDERS_BINDING, CallingModule } from '../modules/calling/calling.module.js';
import { AppConfig, loadConfig } from '../config/app-config.js';
import { extensionProviders, ExtensionOptions } from '../extensions.js';
import { COUNT_FOLDING_PROVIDERS } from '../count-folding.js';
import { FakeClock } from './fake-clock.js';
import { inMemoryAdapters } from './in-memory-adapters.js';
import { InMemoryTargetEventLog } from './in-memory-target-event-log.js';
import { TargetEventLog } from '../modules/target/application/ports/target-event-log.js';
import { CampaignEventListeners } from '../modules/target/application/ports/campaign-event-listener.js';

export interface CampaignCallingTestingOptions extends ExtensionOptions {
  /** The API key requests authenticate with (at least 32 characters), of the organization `test`. */
  apiKey: string;
  /** The clock the service reads; by default a `FakeClock` at 2026-01-05T15:00:00Z (a Monday). */
  clock?: Clock;
  /** Settings (the README's variables) over the testing defaults. */
  config?: Record<string, string>;
  /** Adapters chosen in place of the fakes (`overrideProvider` on the test module works too). */
  adapters?: readonly AdapterBinding[];
  /**
   * The domain modules to serve (each brings the modules it imports); all of them by default. The
   * organization module always comes too: it authenticates the requests.
   */
  modules?: readonly Type[];
}

/** Quiet, immediate and unrestricted by default: a test states the time and rules it needs. */
const TESTING_ENV: Record<string, string> = {
  LOG_LEVEL: 'silent',
  DEMO_SEED: 'false',
  PUBLIC_BASE_URL: 'http://localhost:3000',
  ROLE: 'all',
  SIMULATED_CALL_SECONDS: '0',
  CALLING_POLL_INTERVAL_SECONDS: '0.05',
  CALL_SWEEP_INTERVAL_SECONDS: '1',
  CALLS_PER_SECOND: '0',
  RATE_LIMIT_REQUESTS: '0',
  AUTH_FAILURE_LIMIT: '0',
  DEFAULT_CALLING_POLICY: 'unrestricted',
  WEBHOOK_ALLOW_PRIVATE: 'true',
  PROVIDER_ALLOW_PRIVATE: 'true',
};

/**
 * The fake event log records target events as the fakes change targets, outside Nest: it is handed
 * the registered listeners here (the SQL adapter has them injected).
 */
const TARGET_EVENTS_TO_LISTENERS = Symbol('target events to listeners');

/**
 * The whole service on the in-memory fakes (the ones test/contracts proves equal to the SQL adapters)
 * and the simulator: no database, no network, every background loop stopped by `app.close()`. The
 * HTTP layer is the real one (pipe, filter, API-key guard); requests authenticate with `apiKey`.
 * Jobs (webhook deliveries, CSV imports) are kept by a `RecordingJobQueue`, not run.
 */
@Module({})
export class CampaignCallingTestingModule {
  static forRoot(options: CampaignCallingTestingOptions): DynamicModule {
    const config = loadConfig({
      ...TESTING_ENV,
      ...options.config,
      BOOTSTRAP_API_KEYS: `test=${options.apiKey}`,
    });
    const clock = options.clock ?? new FakeClock('2026-01-05T15:00:00.000Z');
    const modules = new Set([
      OrganizationModule,
      ...(options.modules ?? DOMAIN_MODULES.map((d) => d.module)),
    ]);
    // The fakes, and with the calling engine the real choice of provider per campaign (it keeps no
    // state of its own; it needs the engine's simulator).
    const adapters = withAdapters(
      [
        ...inMemoryAdapters(clock).map(adapterProvider),
        ...(modules.has(CallingModule) ? [CALL_PROVIDERS_BINDING] : []),
      ],
      options.adapters,
    );
    const extensions = extensionProviders(options);
    return {
      module: CampaignCallingTestingModule,
      global: true,
      imports: [...modules, ...(options.imports ?? [])],
      providers: [
        { provide: AppConfig, useValue: config },
        ...HTTP_ENHANCERS,
        ...adapters,
        ...extensions,
        ...COUNT_FOLDING_PROVIDERS,
        ...(options.providers ?? []),
        {
          provide: TARGET_EVENTS_TO_LISTENERS,
          inject: [TargetEventLog, CampaignEventListeners],
          useFactory: (log: TargetEventLog, listeners: CampaignEventListeners) => {
            if (log instanceof InMemoryTargetEventLog) log.deliverTo(listeners);
            return true;
          },
        },
      ],
      exports: [AppConfig, RouteTable, ...[...adapters, ...extensions].map(providedToken)],
    };
  }
}
