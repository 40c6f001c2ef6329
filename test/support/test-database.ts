import { randomBytes } from 'crypto';
import { Client } from 'pg';
import { spawn } from 'child_process';
import { join } from 'path';
import { tsFile } from './run-process.js';

export interface TestDatabase {
  url: string;
  /** Makes the database unreachable, as an outage would (for health and recovery tests). */
  cut(): Promise<void>;
  drop(): Promise<void>;
}

/**
 * A database of its own for one test app: a fresh database on the PostgreSQL named by DATABASE_URL, or
 * an in-memory PGlite served on a loopback port (so child worker processes can connect to it too).
 */
export async function createTestDatabase(): Promise<TestDatabase> {
  if (usesPglite()) return startPgliteProcess();
  const adminUrl = process.env.DATABASE_URL!;
  const name = `ccs_test_${Date.now().toString(36)}_${randomBytes(4).toString('hex')}`;
  await withClient(adminUrl, (c) => c.query(`CREATE DATABASE ${name}`));
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    cut: () =>
      withClient(adminUrl, async (c) => {
        await c.query(`ALTER DATABASE ${name} WITH ALLOW_CONNECTIONS false`);
        await c.query(`SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = $1`, [
          name,
        ]);
      }),
    drop: async () => {
      await withClient(adminUrl, (c) => c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`));
    },
  };
}

/** Tests run on PGlite unless DATABASE_URL names a PostgreSQL server. */
export function usesPglite(): boolean {
  const url = process.env.DATABASE_URL;
  return !url || url.startsWith('pglite://');
}

/** Runs `fn` with a client connected to `url`, and closes it. */
export async function withClient<T>(url: string, fn: (c: Client) => Promise<T>): Promise<T> {
  const client = new Client({ connectionString: url });
  await client.connect();
  try {
    return await fn(client);
  } finally {
    await client.end();
  }
}

async function startPgliteProcess(): Promise<TestDatabase> {
  const child = spawn(process.execPath, tsFile(join(import.meta.dirname, 'pglite-server.main.ts')), {
    stdio: ['pipe', 'pipe', 'inherit'],
  });
  const url = await new Promise<string>((resolve, reject) => {
    let buffered = '';
    child.stdout.on('data', (chunk: Buffer) => {
      buffered += chunk.toString();
      const line = buffered.split('\n')[0];
      if (buffered.includes('\n')) resolve(JSON.parse(line).url);
    });
    child.once('exit', (code) => reject(new Error(`pglite-server exited with ${code}`)));
  });
  const stop = (signal: NodeJS.Signals) =>
    new Promise<void>((resolve) => {
      if (child.exitCode !== null || child.signalCode !== null) return resolve();
      child.once('exit', () => resolve());
      child.kill(signal);
    });
  return { url, cut: () => stop('SIGKILL'), drop: () => stop('SIGTERM') };
}
