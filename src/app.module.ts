import { DynamicModule, Module } from '@nestjs/common';
import { LoggerModule } from 'nestjs-pino';
import { AppConfig } from './config/app-config.js';
import { DatabaseModule } from './database/database.module.js';
import { BlacklistModule } from './modules/blacklist/blacklist.module.js';
import { CallLogModule } from './modules/call-log/call-log.module.js';
import { CallingModule } from './modules/calling/calling.module.js';
import { CampaignModule } from './modules/campaign/campaign.module.js';
import { ComplianceModule } from './modules/compliance/compliance.module.js';
import { DemoModule } from './modules/demo/demo.module.js';
import { HealthModule } from './modules/health/health.module.js';
import { OrganizationModule } from './modules/organization/organization.module.js';
import { ProviderConnectionModule } from './modules/provider-connection/provider-connection.module.js';
import { MessagingModule } from './modules/messaging/messaging.module.js';
import { StepModule } from './modules/step/step.module.js';
import { TargetModule } from './modules/target/target.module.js';
import { WebhookModule } from './modules/webhook/webhook.module.js';
import { RouteTable } from './common/http/route-table.js';
import { REDACTED_PATHS } from './common/logging/redaction.js';
import { serializeError } from './common/logging/error-serializer.js';
import { withoutQueryString } from './common/logging/redaction.js';
import { MetricsModule } from './metrics/metrics.module.js';
import { IdentifiedRequest } from './common/http/request-id.js';

/** Probed every few seconds by orchestrators and Prometheus: logging them would drown the rest. */
const QUIET_PATHS = new Set([
  '/api/v1/health',
  '/api/v1/health/live',
  '/api/v1/health/ready',
  '/metrics',
]);

@Module({})
export class AppModule {
  /** `databaseUrl` is a PostgreSQL URL (for embedded PGlite, the URL of its socket server). */
  static forRoot(config: AppConfig, databaseUrl: string): DynamicModule {
    return {
      module: AppModule,
      imports: [
        LoggerModule.forRoot({
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
              const organizationId = (req as { auth?: { organizationId: string } }).auth
                ?.organizationId;
              return (organizationId ? { organizationId } : undefined) as {
                organizationId: string;
              };
            },
            autoLogging: { ignore: (req) => QUIET_PATHS.has(req.url?.split('?')[0] ?? '') },
          },
        }),
        DatabaseModule.forRoot(config, databaseUrl),
        OrganizationModule,
        HealthModule,
        BlacklistModule,
        ComplianceModule,
        CampaignModule,
        TargetModule,
        CallLogModule,
        CallingModule,
        MessagingModule,
        StepModule,
        WebhookModule,
        ProviderConnectionModule,
        DemoModule,
        MetricsModule,
      ],
      providers: [RouteTable],
      exports: [RouteTable],
    };
  }
}
