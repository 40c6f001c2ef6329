import { readFileSync } from 'fs';
import { join } from 'path';
import { ensureBuilt, exited, freePort, ROOT, startBuiltService } from '../support/run-process.js';
import { TEST_ENV, waitFor, waitForHealth } from '../support/test-app.js';
import { createTestDatabase, TestDatabase } from '../support/test-database.js';

/**
 * `npm start` runs the build, not the sources the other suites run: dist/main.js, and the bundle it
 * imports (dist/service-main.js: the service and the packages scripts/bundle-service.js inlines, in one
 * file). What bundling could break is checked on it: the database and the job queue (external
 * packages, one copy each), the OpenAPI document (@nestjs/swagger inlined; schemas are named by the DTO
 * classes' names), Swagger UI's assets and the console's files (found on disk from the bundle), the
 * 422 body of the validation pipe, and the graceful stop.
 */
describe('the built service (dist/main.js, as npm start runs it)', () => {
  let database: TestDatabase;
  beforeAll(async () => {
    ensureBuilt();
    // Empty: the bundle's own migrations make the schema, as on a first `npm start`.
    database = await createTestDatabase({ empty: true });
  }, 300_000);
  afterAll(() => database?.drop());

  it('serves the API, its OpenAPI document, Swagger UI and the console, and stops on SIGTERM', async () => {
    const port = await freePort();
    const service = startBuiltService({
      ...TEST_ENV,
      DATABASE_URL: database.url,
      PORT: String(port),
      HOST: '127.0.0.1',
      LOG_LEVEL: 'warn',
      DEMO_SEED: 'true',
      NODE_ENV: 'production',
    });
    const base = `http://127.0.0.1:${port}`;
    try {
      await waitForHealth(base, service);
      expect(service.exitCode).toBeNull();
      const health = await fetch(`${base}/api/v1/health`);
      expect(await health.json()).toEqual({ status: 'ok' });
      // Readiness includes the job queue: pg-boss started on the same database.
      const ready = await waitFor(
        () => fetch(`${base}/api/v1/health/ready`).then((r) => r.status),
        (status) => status === 200,
      );
      expect(ready).toBe(200);

      const served = await fetch(`${base}/openapi.json`);
      expect(served.status).toBe(200);
      expect(await served.json()).toEqual(
        JSON.parse(readFileSync(join(ROOT, 'openapi.json'), 'utf8')),
      );
      const docs = await fetch(`${base}/docs`);
      expect(docs.status).toBe(200);
      expect(await docs.text()).toContain('<title>Swagger UI</title>');
      const css = await fetch(`${base}/docs/swagger-ui.css`);
      expect(css.status).toBe(200);
      expect(css.headers.get('content-type')).toMatch(/^text\/css/);
      const consoleIndex = await fetch(`${base}/console/`);
      expect(consoleIndex.status).toBe(200);
      expect(await consoleIndex.text()).toBe(
        readFileSync(join(ROOT, 'dist', 'console', 'index.html'), 'utf8'),
      );

      await waitFor(
        async () => service.output(),
        (o) => o.includes('demo campaign'),
      );
      const key = /demo API key\s+(ccs_\S+)/.exec(service.output())![1];
      const campaign = /demo campaign\s+(\S+)/.exec(service.output())![1];
      const headers = { 'X-API-Key': key, 'Content-Type': 'application/json' };
      const read = await fetch(`${base}/api/v1/campaigns/${campaign}`, { headers });
      expect(read.status).toBe(200);
      expect(await read.json()).toMatchObject({ id: campaign, name: 'Demo campaign' });
      const invalid = await fetch(`${base}/api/v1/campaigns/${campaign}/targets`, {
        method: 'POST',
        headers,
        body: JSON.stringify([{ bad: 1 }]),
      });
      expect(invalid.status).toBe(422);
      expect(await invalid.json()).toEqual({
        detail: [
          {
            type: 'model_attributes_type',
            loc: ['body'],
            msg: 'Input should be a valid dictionary or object to extract fields from',
            input: [{ bad: 1 }],
          },
        ],
      });
    } finally {
      if (service.exitCode === null) service.kill('SIGTERM');
    }
    expect(await exited(service)).toBe(0);
  }, 120_000);
});
