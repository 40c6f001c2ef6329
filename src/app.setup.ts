import { INestApplication } from '@nestjs/common';
import { NestExpressApplication } from '@nestjs/platform-express';
import { AppConfig } from './config/app-config.js';
import { RouteTable } from './common/http/route-table.js';
import { setupOpenApi } from './openapi.js';
import { QuietNestLogger } from './common/logging/quiet-nest-logger.js';
import { raw } from 'express';
import { parseJsonBody } from './common/http/json-body.js';
import { assignRequestId } from './common/http/request-id.js';
import { isCsvImport } from './modules/target/api/target-import.controller.js';
import { TELEPHONY_EVENTS_PREFIX } from './modules/calling/api/telephony-events.controller.js';
import { serveConsole } from './modules/console/console-static.js';
import { httpMetrics } from './metrics/http-metrics.middleware.js';
import { PrometheusMetrics } from './metrics/prometheus-metrics.js';

/**
 * Everything that makes the HTTP app behave as specified, shared by `main.ts` and the e2e tests so they
 * exercise the same pipeline: body limits, FastAPI's JSON parsing, the console, OpenAPI, the route table
 * (the 422 pipe and the error filter come with CampaignCallingModule).
 */
export async function configureApp(app: INestApplication, config: AppConfig): Promise<void> {
  const express = app as NestExpressApplication;
  // Loaded here, not imported: nestjs-pino is CommonJS requiring @nestjs/common (rate-counters.ts).
  const { Logger } = await import('nestjs-pino');
  express.useLogger(new QuietNestLogger(app.get(Logger)));
  express.use(assignRequestId);
  express.use(httpMetrics(app.get(PrometheusMetrics)));
  // Provider events keep their exact bytes (signatures are over the raw body), whatever their type;
  // a body already read is left alone by the parsers below.
  express.use(TELEPHONY_EVENTS_PREFIX, raw({ type: () => true, limit: config.get('BODY_LIMIT') }));
  // Every other body is read as text (within the limit) and parsed as FastAPI would: see json-body.ts.
  // CSV imports are streamed by their route, never read whole (see target-import.controller.ts).
  express.useBodyParser('text', {
    limit: config.get('BODY_LIMIT'),
    type: (req) => !isCsvImport(req as unknown as Parameters<typeof isCsvImport>[0]),
  });
  express.use(parseJsonBody);
  express.disable('x-powered-by');
  // No ETag on API answers: FastAPI sends none, and hashing every answer cost a `GET /targets/{id}`
  // about 3% of its CPU. The console's static files keep theirs (serve-static has its own).
  express.set('etag', false);
  express.set('query parser', 'simple');
  express.set('trust proxy', config.get('TRUST_PROXY'));
  // The operator console (console/, built into dist/console): static files and `/` -> /console/.
  serveConsole(express.getHttpAdapter().getInstance());
  setupOpenApi(app);
  await app.init();
  registerRoutes(app);
}

function registerRoutes(app: INestApplication): void {
  const routes = app.get(RouteTable);
  const instance = app.getHttpAdapter().getInstance();
  const stack: any[] = instance.router?.stack ?? instance._router?.stack ?? [];
  for (const layer of stack) {
    const route = layer.route;
    if (!route?.path) continue;
    for (const method of Object.keys(route.methods ?? {})) {
      if (method !== '_all') routes.register(String(route.path), method);
    }
  }
}
