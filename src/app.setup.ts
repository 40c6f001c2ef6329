import { INestApplication } from '@nestjs/common';
import { NestExpressApplication } from '@nestjs/platform-express';
import { Logger } from 'nestjs-pino';
import { AppConfig } from './config/app-config';
import { HttpExceptionFilter } from './common/http/http-exception.filter';
import { RouteTable } from './common/http/route-table';
import { PydanticValidationPipe } from './common/validation/pydantic-validation.pipe';
import { setupOpenApi } from './openapi';
import { QuietNestLogger } from './common/logging/quiet-nest-logger';
import { jsonParseErrorToValidationError } from './common/http/json-parse-error';

/**
 * Everything that makes the HTTP app behave as specified, shared by `main.ts` and the e2e tests so they
 * exercise the same pipeline: body limits, the 422 pipe, the error filter, OpenAPI, the route table.
 */
export async function configureApp(app: INestApplication, config: AppConfig): Promise<void> {
  const express = app as NestExpressApplication;
  express.useLogger(new QuietNestLogger(app.get(Logger)));
  // strict: false parses any JSON value, so a non-object body gets a 422 naming it, not a parse error.
  express.useBodyParser('json', { limit: config.get('BODY_LIMIT'), strict: false });
  // Nest turns body-parser's SyntaxError into a bare 400; FastAPI answers 422 json_invalid.
  express.use((err: unknown, _req: unknown, _res: unknown, next: (e: unknown) => void) =>
    next(jsonParseErrorToValidationError(err)),
  );
  express.disable('x-powered-by');
  express.set('query parser', 'simple');
  app.useGlobalPipes(new PydanticValidationPipe());
  app.useGlobalFilters(new HttpExceptionFilter(app.get(RouteTable)));
  setupOpenApi(app, config);
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
