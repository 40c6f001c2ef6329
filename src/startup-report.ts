import type { AppConfig, DatabaseTarget } from './config/app-config.js';

/**
 * The one line each process logs once it runs: its role, where it listens and which database it
 * uses, so an operator reading the first lines of a log knows what started. Never a credential: the
 * database is named by its host, port and name.
 */
export function startupReport(config: AppConfig): string {
  const role = config.get('ROLE');
  const parts = [`role ${role}`];
  if (role !== 'worker') parts.push(`port ${config.get('PORT')} on ${config.get('HOST')}`);
  const healthPort = config.get('HEALTH_PORT');
  if (role === 'worker') parts.push(healthPort ? `health port ${healthPort}` : 'no health port');
  parts.push(databaseWords(config.get('database')));
  return `started: ${parts.join(', ')}`;
}

function databaseWords(target: DatabaseTarget): string {
  if (target.kind === 'pglite')
    return `embedded PGlite ${target.dataDir ? `in ${target.dataDir}` : 'in memory'}`;
  try {
    const url = new URL(target.url);
    return `PostgreSQL at ${url.hostname || 'localhost'}:${url.port || '5432'}${url.pathname}`;
  } catch {
    return 'PostgreSQL';
  }
}
