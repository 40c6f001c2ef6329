/**
 * What the benchmarks share: a database of their own on the PostgreSQL server DATABASE_URL names
 * (created before, dropped after), the service started on it, a raw `pg` client beside it, an API
 * client with a fresh organization's key, polling, the statistics and where the results go.
 */
import 'reflect-metadata';
import { randomBytes } from 'crypto';
import { mkdirSync, writeFileSync } from 'fs';
import { join } from 'path';
import { Client } from 'pg';
import { RunningService, startService } from '../src/bootstrap';
import { OrganizationService } from '../src/modules/organization/application/organization.service';
import { withClient } from '../test/support/test-database';

export type BenchEnv = Record<string, string | undefined>;

export interface BenchContext {
  service: RunningService;
  /** A plain client on the benchmark's database, for raw SQL and counting. */
  raw: Client;
  dbName: string;
  /** The environment the service was started with. */
  env: BenchEnv;
}

/**
 * Creates a database on the DATABASE_URL server, starts the service on it with `env` (on top of
 * process.env and a quiet, random-port, no-demo base), runs `fn`, then stops everything and drops
 * the database.
 */
export async function withBenchService(
  env: BenchEnv,
  fn: (ctx: BenchContext) => Promise<void>,
): Promise<void> {
  const adminUrl = process.env.DATABASE_URL;
  if (!adminUrl?.startsWith('postgres')) {
    throw new Error(
      'Set DATABASE_URL to a PostgreSQL server (postgres://...) the benchmark may create a database on',
    );
  }
  const dbName = `ccs_bench_${randomBytes(4).toString('hex')}`;
  await withClient(adminUrl, (c) => c.query(`CREATE DATABASE ${dbName}`));
  const url = new URL(adminUrl);
  url.pathname = `/${dbName}`;
  const databaseUrl = url.toString();

  const serviceEnv: BenchEnv = {
    ...process.env,
    DATABASE_URL: databaseUrl,
    PORT: '0',
    HOST: '127.0.0.1',
    LOG_LEVEL: 'silent',
    DEMO_SEED: 'false',
    ...env,
  };
  const service = await startService(serviceEnv);
  const raw = new Client({ connectionString: databaseUrl });
  await raw.connect();
  try {
    await fn({ service, raw, dbName, env: serviceEnv });
  } finally {
    await raw.end();
    await service.close();
    await withClient(adminUrl, (c) => c.query(`DROP DATABASE IF EXISTS ${dbName} WITH (FORCE)`));
  }
}

/** The service's own address (it listens on a random port). */
export function baseUrl(service: RunningService): string {
  return `http://127.0.0.1:${service.app.getHttpServer().address().port}`;
}

export type Api = (method: string, path: string, body: unknown) => Promise<any>;

/** A new organization and an API client with its key; a non-2xx answer throws with the body. */
export async function benchApi(
  service: RunningService,
  dbName: string,
): Promise<{ organizationId: string; key: string; api: Api }> {
  const base = baseUrl(service);
  const organizations = service.app.get(OrganizationService);
  const organization = await organizations.createOrganization(`bench-${dbName}`);
  const { key } = await organizations.createApiKey(organization.id, 'bench');
  const api: Api = async (method, path, body) => {
    const res = await fetch(`${base}${path}`, {
      method,
      headers: { 'Content-Type': 'application/json', 'X-API-Key': key },
      body: JSON.stringify(body),
    });
    const json = await res.json();
    if (!res.ok)
      throw new Error(`${method} ${path}: ${res.status} ${JSON.stringify(json).slice(0, 500)}`);
    return json;
  };
  return { organizationId: organization.id, key, api };
}

/** Sleeps `intervalMs`, then runs the `count(*)::int AS n` query, until it reaches `expected`. */
export async function waitForCount(
  raw: Client,
  sql: string,
  params: unknown[],
  expected: number,
  intervalMs: number,
): Promise<void> {
  let n = 0;
  while (n < expected) {
    await sleep(intervalMs);
    const { rows } = await raw.query(sql, params);
    n = rows[0].n;
  }
}

export async function serverVersion(raw: Client): Promise<string> {
  return (await raw.query('SHOW server_version')).rows[0].server_version;
}

/** One line of the table `npm run bench` prints; a result may carry these as `summary`. */
export interface SummaryRow {
  path: string;
  ours: string;
  baseline: string;
  ratio: number | null;
  goal: string;
  met: boolean | null;
}

/** Prints the result and writes it to bench/results/<name>.json. */
export function writeResult(name: string, result: unknown): void {
  console.log(JSON.stringify(result, null, 2));
  const dir = join(__dirname, 'results');
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, `${name}.json`), JSON.stringify(result, null, 2) + '\n');
}

/** Runs a benchmark's main; any error is printed and the process exits with 1. */
export function runBench(main: () => Promise<void>): void {
  main().catch((err) => {
    console.error(err);
    process.exit(1);
  });
}

export const round = (n: number) => Math.round(n * 100) / 100;
export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}
