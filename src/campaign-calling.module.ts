import { DynamicModule, Module, Provider, Type } from '@nestjs/common';
import { APP_FILTER, APP_PIPE } from '@nestjs/core';
import type { Params as LoggerParams } from 'nestjs-pino';
import { AppConfig, DatabaseTarget, loadConfig, parseDatabaseUrl } from './config/app-config.js';
import { DATABASE_ADAPTERS, DatabaseModule } from './database/database.module.js';
import { BLACKLIST_ADAPTERS, BlacklistModule } from './modules/blacklist/blacklist.module.js';
import { CALL_LOG_ADAPTERS, CallLogModule } from './modules/call-log/call-log.module.js';
import { CALLING_ADAPTERS, CallingModule } from './modules/calling/calling.module.js';
import { CAMPAIGN_ADAPTERS, CampaignModule } from './modules/campaign/campaign.module.js';
import { COMPLIANCE_ADAPTERS, ComplianceModule } from './modules/compliance/compliance.module.js';
import { AUDIT_ADAPTERS, AuditModule } from './modules/audit/audit.module.js';
import { DemoModule } from './modules/demo/demo.module.js';
import { HealthModule } from './modules/health/health.module.js';
import {
  ORGANIZATION_ADAPTERS,
  OrganizationModule,
} from './modules/organization/organization.module.js';
import {
  PROVIDER_CONNECTION_ADAPTERS,
  ProviderConnectionModule,
} from './modules/provider-connection/provider-connection.module.js';
import { StepModule } from './modules/step/step.module.js';
import { TARGET_ADAPTERS, TargetModule } from './modules/target/target.module.js';
import { WEBHOOK_ADAPTERS, WebhookModule } from './modules/webhook/webhook.module.js';
import { MESSAGING_ADAPTERS, MessagingModule } from './modules/messaging/messaging.module.js';
import { RETENTION_ADAPTERS, RetentionModule } from './modules/retention/retention.module.js';
import { RouteTable } from './common/http/route-table.js';
import { HttpExceptionFilter } from './common/http/http-exception.filter.js';
import { PydanticValidationPipe } from './common/validation/pydantic-validation.pipe.js';
import { AdapterBinding, providedToken, withAdapters } from './common/adapters/adapter-binding.js';
import { REDACTED_PATHS } from './common/logging/redaction.js';
import { serializeError } from './common/logging/error-serializer.js';
import { withoutQueryString } from './common/logging/redaction.js';
import { METRICS_ADAPTERS, MetricsModule } from './metrics/metrics.module.js';
import { IdentifiedRequest } from './common/http/request-id.js';
import { extensionProviders, ExtensionOptions } from './extensions.js';
import { COUNT_FOLDING_PROVIDERS } from './count-folding.js';

/**
 * The domain modules and the adapters their ports are bound to by default (a module reaches its
 * ports through the root module, which binds them once for all). A new module is one line here.
 */
export const DOMAIN_MODULES: readonly { module: Type; adapters: readonly Provider[] }[] = [
  { module: AuditModule, adapters: AUDIT_ADAPTERS },
  { module: OrganizationModule, adapters: ORGANIZATION_ADAPTERS },
  { module: BlacklistModule, adapters: BLACKLIST_ADAPTERS },
  { module: ComplianceModule, adapters: COMPLIANCE_ADAPTERS },
  { module: CampaignModule, adapters: CAMPAIGN_ADAPTERS },
  { module: TargetModule, adapters: TARGET_ADAPTERS },
  { module: CallLogModule, adapters: CALL_LOG_ADAPTERS },
  { module: CallingModule, adapters: CALLING_ADAPTERS },
  { module: StepModule, adapters: [] },
  { module: WebhookModule, adapters: WEBHOOK_ADAPTERS },
  { module: ProviderConnectionModule, adapters: PROVIDER_CONNECTION_ADAPTERS },
  { module: MessagingModule, adapters: MESSAGING_ADAPTERS },
  { module: RetentionModule, adapters: RETENTION_ADAPTERS },
];

/** Probed every few seconds by orchestrators and Prometheus: logging them would drown the rest. */
const QUIET_PATHS = new Set([
  '/api/v1/health',
  '/api/v1/health/live',
  '/api/v1/health/ready',
  '/metrics',
]);

export interface CampaignCallingOptions extends ExtensionOptions {
  /**
   * The settings (the variables of the README's configuration table): an `AppConfig` from
   * `loadConfig(env)`, or the variables themselves. `process.env` is not read unless passed here.
   */
  config?: AppConfig | Record<string, string | undefined>;
  /**
   * The database; by default the configuration's DATABASE_URL, and with none the embedded PGlite
   * `npm start` runs on (in `./.data/pglite`). `{ url }` takes `postgres://...`, `pglite://<dir>` or
   * `pglite://memory`; `{ embedded: true }` is embedded PGlite in memory (or in `dataDir`), started
   * with the app and stopped by `app.close()`.
   */
  database?: { url: string } | { embedded: true; dataDir?: string };
  /**
   * Adapters chosen for ports, each replacing the default one, e.g.
   * `[[WebhookSender, MySender], [Clock, { useValue: myClock }]]`.
   */
  adapters?: readonly AdapterBinding[];
}

/** Where `forRoot`'s app keeps its data: the `database` option, else the configuration's. */
export function databaseOf(
  database: CampaignCallingOptions['database'],
  config: AppConfig,
): DatabaseTarget {
  if (database && 'url' in database) return parseDatabaseUrl(database.url);
  if (database?.embedded) return { kind: 'pglite', dataDir: database.dataDir ?? null };
  return config.get('database');
}

export function configOf(config: CampaignCallingOptions['config']): AppConfig {
  return config instanceof AppConfig ? config : loadConfig(config ?? {});
}

/**
 * What makes the HTTP answers the service's wherever the module is imported: the FastAPI-shaped 422
 * pipe and the one error filter (404, 409, 422, 500 with an error id), registered as app-wide
 * enhancers, and the route table the filter tells a 405 from a 404 with.
 */
export const HTTP_ENHANCERS: Provider[] = [
  RouteTable,
  { provide: APP_PIPE, useClass: PydanticValidationPipe },
  {
    provide: APP_FILTER,
    inject: [RouteTable],
    useFactory: (r: RouteTable) => new HttpExceptionFilter(r),
  },
];

function loggerOptions(config: AppConfig): LoggerParams {
  return {
    // At LOG_LEVEL=silent no request is ever logged: mounting pino-http anyway would still build a
    // child logger and serialise the request for each one, and bind it in an AsyncLocalStorage
    // (whose promise hooks slow every await), about a quarter of a simple read's throughput.
    forRoutes: config.get('LOG_LEVEL') === 'silent' ? [] : undefined,
    pinoHttp: {
      level: config.get('LOG_LEVEL'),
      // Assigned (and echoed as X-Request-Id) by assignRequestId, before any middleware of Nest's.
      genReqId: (req) => (req as IdentifiedRequest).id,
      redact: { paths: REDACTED_PATHS, censor: '[redacted]' },
      serializers: { err: serializeError, req: withoutQueryString },
      // Called as the request starts (before authentication: nothing to add, and no child logger
      // to build for it) and again for the completion line.
      customProps: (req) => {
        const organizationId = (req as { auth?: { organizationId: string } }).auth?.organizationId;
        return (organizationId ? { organizationId } : undefined) as { organizationId: string };
      },
      autoLogging: { ignore: (req) => QUIET_PATHS.has(req.url?.split('?')[0] ?? '') },
    },
  };
}

/**
 * The whole service as one module: `CampaignCallingModule.forRoot({ config, database, adapters,
 * voiceProviders, preDialChecks, listeners, imports, providers })`. It is global: it binds every port
 * (its default adapter, or the one chosen in `adapters`) once, for all the domain modules it imports.
 * The extension classes are its providers, so they inject the ports and services, and whatever
 * `imports` (the app's modules) and `providers` give them.
 */
@Module({})
export class CampaignCallingModule {
  static forRoot(options: CampaignCallingOptions = {}): DynamicModule {
    const given = configOf(options.config);
    const database = databaseOf(options.database, given);
    // On an embedded database of its own the module's settings say so: a generated credentials key
    // is kept beside its data directory (in memory for an in-memory one), as `npm start` keeps it.
    const config =
      database.kind === 'pglite' ? new AppConfig({ ...given.values, database }) : given;
    const adapters = withAdapters(
      [...DATABASE_ADAPTERS, ...METRICS_ADAPTERS, ...DOMAIN_MODULES.flatMap((d) => d.adapters)],
      options.adapters,
    );
    const extensions = extensionProviders(options);
    return {
      module: CampaignCallingModule,
      global: true,
      imports: [
        // Loaded as the module is built, not imported: nestjs-pino is CommonJS requiring
        // @nestjs/common, which Jest would run too early (common/http/rate-counters.ts).
        import('nestjs-pino').then(({ LoggerModule }) =>
          LoggerModule.forRoot(loggerOptions(config)),
        ),
        DatabaseModule.forRoot(config, database),
        HealthModule,
        ...DOMAIN_MODULES.map((d) => d.module),
        DemoModule,
        MetricsModule,
        ...(options.imports ?? []),
      ],
      providers: [
        ...HTTP_ENHANCERS,
        ...adapters,
        ...extensions,
        ...COUNT_FOLDING_PROVIDERS,
        ...(options.providers ?? []),
      ],
      exports: [RouteTable, ...[...adapters, ...extensions].map(providedToken)],
    };
  }
}
