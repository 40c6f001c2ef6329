import 'reflect-metadata';
import { Logger } from '@nestjs/common';
import { existsSync } from 'fs';
import { PortInUseError, startService } from './bootstrap.js';
import { ConfigError } from './config/app-config.js';
import { isDatabaseUnavailable } from './database/connection-errors.js';
import { EmbeddedDatabaseInUseError } from './database/embedded-postgres.js';

async function main(): Promise<void> {
  // `.env` fills in what the environment does not set (the environment wins).
  if (existsSync('.env')) process.loadEnvFile('.env');
  guardAgainstLostConnections();
  const service = await startService();
  const logger = new Logger('Shutdown');
  const budgetMs = service.config.get('SHUTDOWN_TIMEOUT');
  for (const signal of ['SIGTERM', 'SIGINT'] as const) {
    process.once(signal, () => {
      logger.log({ signal, timeoutMs: budgetMs }, `${signal}: stopping gracefully`);
      const deadline = setTimeout(() => {
        logger.error({ timeoutMs: budgetMs }, 'did not stop within SHUTDOWN_TIMEOUT; exiting');
        process.exit(1);
      }, budgetMs);
      deadline.unref();
      service.close().then(
        () => process.exit(0),
        (err) => {
          logger.error({ err }, 'error while stopping');
          process.exit(1);
        },
      );
    });
  }
}

/**
 * A library that loses its database connection mid-operation may leave a promise rejected with no
 * handler (pg-boss 10 did). That must not end a process that recovers on its own once the database is
 * back; any other unhandled rejection is a bug and still ends it.
 */
function guardAgainstLostConnections(): void {
  const logger = new Logger('Process');
  process.on('unhandledRejection', (reason) => {
    if (isDatabaseUnavailable(reason)) {
      logger.warn({ err: reason }, 'database connection lost (unhandled); carrying on');
      return;
    }
    logger.error({ err: reason }, 'unhandled promise rejection');
    process.exit(1);
  });
}

main().catch((err) => {
  // Problems that are the operator's to fix: what is wrong, one line each, no stack trace.
  const operatorErrors = [ConfigError, EmbeddedDatabaseInUseError, PortInUseError];
  if (operatorErrors.some((type) => err instanceof type)) process.stderr.write(`${err.message}\n`);
  else console.error(err);
  process.exit(1);
});
