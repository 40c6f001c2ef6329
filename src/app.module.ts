import { DynamicModule, Module } from '@nestjs/common';
import { LoggerModule } from 'nestjs-pino';
import { randomUUID } from 'crypto';
import { AppConfig } from './config/app-config';
import { DatabaseModule } from './database/database.module';
import { BlacklistModule } from './modules/blacklist/blacklist.module';
import { CallLogModule } from './modules/call-log/call-log.module';
import { CallingModule } from './modules/calling/calling.module';
import { CampaignModule } from './modules/campaign/campaign.module';
import { DemoModule } from './modules/demo/demo.module';
import { HealthModule } from './modules/health/health.module';
import { OrganizationModule } from './modules/organization/organization.module';
import { ProviderConnectionModule } from './modules/provider-connection/provider-connection.module';
import { StepModule } from './modules/step/step.module';
import { TargetModule } from './modules/target/target.module';
import { WebhookModule } from './modules/webhook/webhook.module';
import { RouteTable } from './common/http/route-table';
import { REDACTED_PATHS } from './common/logging/redaction';
import { serializeError } from './common/logging/error-serializer';
import { withoutQueryString } from './common/logging/redaction';
import { MetricsModule } from './metrics/metrics.module';

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
          pinoHttp: {
            level: config.get('LOG_LEVEL'),
            genReqId: (req, res) => {
              const id = (req.headers['x-request-id'] as string) || randomUUID();
              res.setHeader('X-Request-Id', id);
              return id;
            },
            redact: { paths: REDACTED_PATHS, censor: '[redacted]' },
            serializers: { err: serializeError, req: withoutQueryString },
            customProps: (req) => ({ organizationId: (req as any).auth?.organizationId }),
            autoLogging: { ignore: (req) => QUIET_PATHS.has(req.url?.split('?')[0] ?? '') },
          },
        }),
        DatabaseModule.forRoot(config, databaseUrl),
        OrganizationModule,
        HealthModule,
        BlacklistModule,
        CampaignModule,
        TargetModule,
        CallLogModule,
        CallingModule,
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
