import { INestApplication, Logger } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { Server } from 'http';
import { DataSource } from 'typeorm';
import { CampaignCallingModule, CampaignCallingOptions } from './campaign-calling.module.js';
import { configureApp } from './app.setup.js';
import { AppConfig, loadConfig } from './config/app-config.js';
import { DEMO_SEED_LOCK, withAdvisoryLock } from './database/advisory-lock-exclusive-runner.js';
import { EmbeddedPostgres } from './database/embedded-postgres.js';
import { PrometheusMetrics } from './metrics/prometheus-metrics.js';
import { demoBanner, DemoSeeder } from './modules/demo/demo-seeder.js';
import { HealthService } from './modules/health/health.service.js';
import { startWorkerHealthServer } from './modules/health/worker-health-server.js';
import { startupReport } from './startup-report.js';

export interface RunningService {
  app: INestApplication;
  config: AppConfig;
  databaseUrl: string;
  /**
   * The graceful stop: readiness turns false, no new HTTP request or job is taken, running ones
   * finish (or jobs are handed back to the queue when the shutdown budget runs out), pools close.
   */
  close(): Promise<void>;
}

/** What `startService` takes besides the environment: `forRoot`'s adapters and extension points. */
export type ServiceOptions = Omit<CampaignCallingOptions, 'config' | 'database'>;

/**
 * Resolves the database (starting embedded PGlite when no PostgreSQL is configured), builds the app
 * (`CampaignCallingModule.forRoot` with `options`: adapters, voice providers, pre-dial checks,
 * listeners, and the modules they need) and, unless this process is only a worker, serves HTTP.
 */
export async function startService(
  env: Record<string, string | undefined> = process.env,
  options: ServiceOptions = {},
): Promise<RunningService> {
  const config = loadConfig(env);
  const database = config.get('database');
  const embedded =
    database.kind === 'pglite' ? await EmbeddedPostgres.start(database.dataDir) : null;
  const databaseUrl = embedded?.url ?? (database as { url: string }).url;
  try {
    const app = await NestFactory.create(
      CampaignCallingModule.forRoot({ ...options, config, database: { url: databaseUrl } }),
      { bodyParser: false, bufferLogs: true },
    );
    // A worker's probes answer from the start (not ready until its job queue runs), so a supervisor
    // never sees the port closed once the process reported itself started.
    let healthServer: Server | null = null;
    const healthPort = config.get('HEALTH_PORT');
    if (config.get('ROLE') === 'worker' && healthPort) {
      healthServer = await onFreePort('HEALTH_PORT', healthPort, config.get('HOST'), () =>
        startWorkerHealthServer(
          app.get(HealthService),
          app.get(PrometheusMetrics),
          healthPort,
          config.get('HOST'),
        ),
      );
    }
    await configureApp(app, config);
    if (config.get('WEBHOOK_ALLOW_PRIVATE') && config.get('ROLE') !== 'api') {
      new Logger('Webhooks').warn(
        'WEBHOOK_ALLOW_PRIVATE is on: notifications may go to loopback and private addresses (fine for a local demo, not for production)',
      );
    }
    if (config.get('PROVIDER_ALLOW_PRIVATE')) {
      new Logger('ProviderConnections').warn(
        "PROVIDER_ALLOW_PRIVATE is on: a provider connection's api_base_url, and its stored credentials, may go to loopback and private addresses (fine for a local demo, not for production)",
      );
    }
    const started = new Logger('Service');
    // Nest flushes buffered start-up logs in listen(), which a worker-only process never calls.
    if (config.get('ROLE') === 'worker') {
      app.flushLogs();
      started.log(startupReport(config));
    } else {
      (app.getHttpServer() as Server).requestTimeout = config.get('HTTP_REQUEST_TIMEOUT');
      await onFreePort('PORT', config.get('PORT'), config.get('HOST'), () =>
        app.listen(config.get('PORT'), config.get('HOST')),
      );
      started.log(startupReport(config));
      if (config.get('DEMO_SEED')) {
        // Several API processes may seed at once: one at a time, so that each finds what the one
        // before it made (one demo organization, campaign and policy).
        const demo = await withAdvisoryLock(app.get(DataSource), DEMO_SEED_LOCK, () =>
          app.get(DemoSeeder).seed(),
        );
        const listening = {
          baseUrl: config.get('PUBLIC_BASE_URL'),
          host: config.get('HOST'),
          privateWebhooks: config.get('WEBHOOK_ALLOW_PRIVATE'),
          cliReachesDatabase: database.kind === 'postgres' || database.dataDir !== null,
        };
        process.stdout.write(demoBanner(listening, demo) + '\n');
      }
    }
    let closing: Promise<void> | null = null;
    return {
      app,
      config,
      databaseUrl,
      close: () =>
        (closing ??= (async () => {
          app.get(HealthService).markStopping();
          if (config.get('ROLE') !== 'worker') await stopAccepting(app.getHttpServer() as Server);
          await app.close();
          if (healthServer) await new Promise((resolve) => healthServer!.close(resolve));
          await embedded?.stop();
        })()),
    };
  } catch (err) {
    await embedded?.stop();
    throw err;
  }
}

/** A port another process holds: the operator's to fix, told in one line (see main.ts). */
export class PortInUseError extends Error {}

/** `listen`, with EADDRINUSE told as which port is taken and which setting moves it. */
async function onFreePort<T>(
  setting: 'PORT' | 'HEALTH_PORT',
  port: number,
  host: string,
  listen: () => Promise<T>,
): Promise<T> {
  try {
    return await listen();
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EADDRINUSE') throw err;
    throw new PortInUseError(
      `port ${port} on ${host} is already in use by another process: stop that process, or set ${setting} to a free port`,
    );
  }
}

/**
 * No new connection is accepted; requests in progress finish, and every keep-alive connection is
 * closed as soon as it is idle. Resolves once the last connection is gone (the main deadline,
 * SHUTDOWN_TIMEOUT, bounds a request that never ends).
 */
function stopAccepting(server: Server): Promise<void> {
  return new Promise((resolve) => {
    const closeIdle = setInterval(() => server.closeIdleConnections(), 100);
    server.close(() => {
      clearInterval(closeIdle);
      resolve();
    });
    server.closeIdleConnections();
  });
}
