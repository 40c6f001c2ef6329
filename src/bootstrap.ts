import { INestApplication, Logger } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { AppModule } from './app.module';
import { configureApp } from './app.setup';
import { AppConfig, loadConfig } from './config/app-config';
import { EmbeddedPostgres } from './database/embedded-postgres';
import { demoBanner, DemoSeeder } from './modules/demo/demo-seeder';

export interface RunningService {
  app: INestApplication;
  config: AppConfig;
  databaseUrl: string;
  close(): Promise<void>;
}

/**
 * Resolves the database (starting embedded PGlite when no PostgreSQL is configured), builds the app
 * and, unless this process is only a worker, serves HTTP.
 */
export async function startService(
  env: Record<string, string | undefined> = process.env,
): Promise<RunningService> {
  const config = loadConfig(env);
  const database = config.get('database');
  const embedded =
    database.kind === 'pglite' ? await EmbeddedPostgres.start(database.dataDir) : null;
  const databaseUrl = embedded?.url ?? (database as { url: string }).url;
  try {
    const app = await NestFactory.create(AppModule.forRoot(config, databaseUrl), {
      bodyParser: false,
      bufferLogs: true,
    });
    await configureApp(app, config);
    if (config.get('WEBHOOK_ALLOW_PRIVATE') && config.get('ROLE') !== 'api') {
      new Logger('Webhooks').warn(
        'WEBHOOK_ALLOW_PRIVATE is on: notifications may go to loopback and private addresses (fine for a local demo, not for production)',
      );
    }
    // Nest flushes buffered start-up logs in listen(), which a worker-only process never calls.
    if (config.get('ROLE') === 'worker') app.flushLogs();
    if (config.get('ROLE') !== 'worker') {
      await app.listen(config.get('PORT'), config.get('HOST'));
      if (config.get('DEMO_SEED')) {
        const demo = await app.get(DemoSeeder).seed();
        process.stdout.write(demoBanner(config.get('PUBLIC_BASE_URL'), demo) + '\n');
      }
    }
    let closed = false;
    return {
      app,
      config,
      databaseUrl,
      close: async () => {
        if (closed) return;
        closed = true;
        await app.close();
        await embedded?.stop();
      },
    };
  } catch (err) {
    await embedded?.stop();
    throw err;
  }
}
