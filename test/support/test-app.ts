import { INestApplication } from '@nestjs/common';
import { createServer, type Server } from 'http';
import type { AddressInfo } from 'net';
import { Test, TestingModuleBuilder } from '@nestjs/testing';
import { Pool } from 'pg';
import request from 'supertest';
import {
  CampaignCallingModule,
  type CampaignCallingOptions,
} from '../../src/campaign-calling.module.js';
import { configureApp } from '../../src/app.setup.js';
import { loadConfig } from '../../src/config/app-config.js';
import { OrganizationService } from '../../src/modules/organization/application/organization.service.js';
import { createTestDatabase } from './test-database.js';

export interface TestApp {
  app: INestApplication;
  http(): ReturnType<typeof request>;
  /** A URL another process (a worker child process) can connect to. */
  databaseUrl: string;
  /** The environment the app was started with, to start child workers alike. */
  env: Record<string, string>;
  sql<T = any>(text: string, params?: unknown[]): Promise<T[]>;
  createOrganization(name?: string): Promise<{ organizationId: string; apiKey: string }>;
  createCampaign(apiKey: string, body?: Record<string, unknown>): Promise<any>;
  /** `POST /campaigns/{id}/targets` with `body` (`{ targets, launch? }`); the new targets' ids. */
  addTargets(apiKey: string, campaignId: string, body: Record<string, unknown>): Promise<string[]>;
  /** Makes the database unreachable (PGlite killed, or PostgreSQL refusing connections). */
  cutDatabase(): Promise<void>;
  close(): Promise<void>;
}

export interface TestAppOptions {
  env?: Record<string, string>;
  /** Options for CampaignCallingModule.forRoot beside the configuration and database (adapters, checks). */
  module?: Omit<CampaignCallingOptions, 'config' | 'database'>;
  customize?: (builder: TestingModuleBuilder) => TestingModuleBuilder;
}

export const TEST_ENV: Record<string, string> = {
  LOG_LEVEL: 'silent',
  DEMO_SEED: 'false',
  SIMULATED_CALL_SECONDS: '0',
  WEBHOOK_ALLOW_PRIVATE: 'true',
  // The provider emulators listen on 127.0.0.1; provider-connections.e2e-spec turns this off.
  PROVIDER_ALLOW_PRIVATE: 'true',
  WEBHOOK_RETRY_SCHEDULE: '1s,1s',
  JOB_POLL_INTERVAL_SECONDS: '0.5',
  JOB_MAINTENANCE_INTERVAL_SECONDS: '2',
  PUBLIC_BASE_URL: 'http://localhost:3000',
  ROLE: 'all',
  // Calls: no NOTIFY on PGlite, so the dispatcher's poll is what wakes it there.
  CALLING_POLL_INTERVAL_SECONDS: '0.1',
  CALL_SWEEP_INTERVAL_SECONDS: '0.5',
  CALLS_PER_SECOND: '0',
  // Suites send bursts from one address and key; the rate-limit tests turn the limits on.
  RATE_LIMIT_REQUESTS: '0',
  AUTH_FAILURE_LIMIT: '0',
  // Suites call at any hour of the machine's clock; the calling-rules suites set policies of their own.
  DEFAULT_CALLING_POLICY: 'unrestricted',
  // Suites that read the count tables fold them by hand (foldCounts), so no timer folds behind them.
  COUNT_FOLD_INTERVAL_SECONDS: '0',
  // The retention purge runs its batches back to back: suites wait on its end, not on its pacing.
  RETENTION_PURGE_DUTY_CYCLE: '1',
};

let organizationCounter = 0;

/** Boots the real app (same `configureApp` as main.ts) on a database of its own. */
export async function createTestApp(options: TestAppOptions = {}): Promise<TestApp> {
  const database = await createTestDatabase();
  const env = { ...TEST_ENV, ...options.env, DATABASE_URL: database.url };
  const config = loadConfig(env);
  let app: INestApplication | undefined;
  let pool: Pool | undefined;
  let server: Server | undefined;
  try {
    let builder = Test.createTestingModule({
      imports: [
        CampaignCallingModule.forRoot({
          ...options.module,
          config,
          database: { url: database.url },
        }),
      ],
    });
    if (options.customize) builder = options.customize(builder);
    const moduleRef = await builder.compile();
    app = moduleRef.createNestApplication({ bodyParser: false, logger: false });
    await configureApp(app, config);
    pool = new Pool({ connectionString: database.url, max: 3 });
    // Dropping the database at the end terminates idle connections; that is not a test failure.
    pool.on('error', () => undefined);
    // supertest given an app's server that is not listening makes it listen on a new port for every
    // request and closes it after; a request took 25% longer that way (4 ms against 5.4 at a load of
    // 12). So the tests' requests go to a server of their own, listening from the start, on the app's
    // request handler; the app's own server stays free for the tests that listen with it.
    server = createServer(app.getHttpAdapter().getInstance());
    await new Promise<void>((resolve, reject) => {
      server!.once('error', reject);
      server!.listen(0, '127.0.0.1', resolve);
    });
  } catch (err) {
    server?.close();
    await app?.close().catch(() => undefined);
    await database.drop();
    throw err;
  }
  const nest = app;
  const assertions = pool;
  const requests = server;
  const base = `http://127.0.0.1:${(requests.address() as AddressInfo).port}`;
  const http = () => request(base);

  return {
    app: nest,
    http,
    databaseUrl: database.url,
    env,
    sql: async (text, params) => (await assertions.query(text, params as unknown[])).rows,
    async createOrganization(name) {
      const organizations = nest.get(OrganizationService);
      const organization = await organizations.createOrganization(
        name ?? `org-${process.pid}-${++organizationCounter}-${Date.now()}`,
      );
      const { key } = await organizations.createApiKey(organization.id, 'test');
      return { organizationId: organization.id, apiKey: key };
    },
    async createCampaign(apiKey, body = {}) {
      const res = await http()
        .post('/api/v1/campaigns')
        .set('X-API-Key', apiKey)
        .send({ name: 'Test campaign', type: 'patient', ...body });
      if (res.status !== 201) {
        throw new Error(`createCampaign: ${res.status} ${JSON.stringify(res.body)}`);
      }
      return res.body;
    },
    async addTargets(apiKey, campaignId, body) {
      const res = await http()
        .post(`/api/v1/campaigns/${campaignId}/targets`)
        .set('X-API-Key', apiKey)
        .send(body);
      if (res.status !== 200) {
        throw new Error(`addTargets: ${res.status} ${JSON.stringify(res.body)}`);
      }
      return res.body.target_ids;
    },
    cutDatabase: () => database.cut(),
    async close() {
      requests.closeAllConnections();
      await new Promise((resolve) => requests.close(resolve));
      // After cutDatabase the app's shutdown queries fail; the database goes away regardless.
      await nest.close().catch(() => undefined);
      await assertions.end().catch(() => undefined);
      await database.drop();
    },
  };
}

/** Polls until `done` holds (or throws after the timeout, with the last value in the message). */
export async function waitFor<T>(
  probe: () => Promise<T>,
  done: (value: T) => boolean,
  timeoutMs = 20_000,
  intervalMs = 100,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let last: T = await probe();
  while (!done(last)) {
    if (Date.now() > deadline) {
      throw new Error(
        `waitFor: timed out after ${timeoutMs} ms; last value: ${JSON.stringify(last)?.slice(0, 2000)}`,
      );
    }
    await new Promise((r) => setTimeout(r, intervalMs));
    last = await probe();
  }
  return last;
}

/**
 * Waits until the service process at `base` answers its health route (200), or has exited (its
 * output then says why: the caller asserts it is empty while `exitCode` is null).
 */
export async function waitForHealth(
  base: string,
  child: { exitCode: number | null },
): Promise<void> {
  await waitFor(
    () =>
      fetch(`${base}/api/v1/health`).then(
        (r) => r.status,
        () => 0,
      ),
    (status) => status === 200 || child.exitCode !== null,
    90_000,
    200,
  );
}
