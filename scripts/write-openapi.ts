/**
 * Writes the service's OpenAPI document to openapi.json at the repository root (`npm run openapi:write`).
 * The app is built in Nest's preview mode: modules and routes, no providers, no database, no listening.
 * test/e2e/openapi-document.e2e-spec.ts fails when the running service serves anything else.
 */
import { NestFactory } from '@nestjs/core';
import { writeFileSync } from 'fs';
import { join } from 'path';
import { CampaignCallingModule } from '../src/campaign-calling.module.js';
import { loadConfig } from '../src/config/app-config.js';
import { buildOpenApiDocument, openApiJson } from '../src/openapi.js';

async function main(): Promise<void> {
  const config = loadConfig({ ...process.env, LOG_LEVEL: 'silent' });
  const app = await NestFactory.create(CampaignCallingModule.forRoot({
      config,
      database: { url: 'postgres://preview/none' },
    }), {
    preview: true,
    logger: false,
    bodyParser: false,
  });
  const target = join(import.meta.dirname, '..', 'openapi.json');
  writeFileSync(target, openApiJson(buildOpenApiDocument(app)));
  await app.close();
  process.stdout.write(`wrote ${target}\n`);
}

main().catch((err) => {
  process.stderr.write(`${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
  process.exit(1);
});
