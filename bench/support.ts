/**
 * What the benchmarks share: a database of their own on the PostgreSQL server DATABASE_URL names
 * (created before, dropped after), the service started on it, a raw `pg` client beside it, an API
 * client with a fresh organization's key, polling, the statistics and where the results go.
 */
import 'reflect-metadata';
import { randomBytes } from 'crypto';
import { mkdirSync, writeFileSync } from 'fs';
import * as os from 'os';
import { join } from 'path';
import { Client } from 'pg';
import { RunningService, startService } from '../src/bootstrap.js';
import { AuditInterceptor } from '../src/modules/audit/api/audit.interceptor.js';
import { OrganizationService } from '../src/modules/organization/application/organization.service.js';
import { withClient } from '../test/support/test-database.js';

export type BenchEnv = Record<string, string | undefined>;

/**
 * Auditing on (the interceptor as built) or off (bypassed: the handler's answer goes straight out,
 * and no audit event is written). There is no setting that turns auditing off: this is for measuring
 * only (`bench:audit` alternates the two; BENCH_AUDIT=off runs any benchmark with it off, to compare
 * with code from before the audit trail).
 */
const audited = AuditInterceptor.prototype.intercept;
export function setAuditing(on: boolean): void {
  AuditInterceptor.prototype.intercept = on ? audited : async (_context, next) => next.handle();
}

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
 * the database (unless BENCH_KEEP_DATABASE is set: then it prints its URL and keeps it).
 */
export async function withBenchService(
  env: BenchEnv,
  fn: (ctx: BenchContext) => Promise<void>,
): Promise<void> {
  const database = await createBenchDatabase();
  const dbName = database.name;
  const databaseUrl = database.url;

  const serviceEnv: BenchEnv = {
    ...process.env,
    DATABASE_URL: databaseUrl,
    PORT: '0',
    HOST: '127.0.0.1',
    LOG_LEVEL: 'silent',
    DEMO_SEED: 'false',
    ...env,
  };
  if (process.env.BENCH_AUDIT === 'off') setAuditing(false);
  const service = await startService(serviceEnv);
  const raw = new Client({ connectionString: databaseUrl });
  await raw.connect();
  try {
    await fn({ service, raw, dbName, env: serviceEnv });
  } finally {
    await raw.end();
    await service.close();
    // Kept for profiling the benchmark's data by hand (EXPLAIN on the raw queries); dropped otherwise.
    if (process.env.BENCH_KEEP_DATABASE) console.error(`kept ${databaseUrl}`);
    else await database.drop();
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

/**
 * A new patient campaign of the benchmark's organization, created over the API as a user would;
 * `extra` adds fields to the request. Returns its id.
 */
export async function benchCampaign(
  api: Api,
  name: string,
  extra: Record<string, unknown> = {},
): Promise<string> {
  return (await api('POST', '/api/v1/campaigns', { name, type: 'patient', ...extra })).id;
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
  const dir = join(import.meta.dirname, 'results');
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

/** Percentile by nearest rank. */
export function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
}

/** Count, p50, p95 and max of some timings, rounded. */
export const stats = (ms: number[]) => ({
  n: ms.length,
  p50: round(percentile(ms, 50)),
  p95: round(percentile(ms, 95)),
  // A loop, not Math.max(...ms): a long run's hundreds of thousands of timings overflow the stack as arguments.
  max: round(ms.reduce((m, v) => (v > m ? v : m), -Infinity)),
});

/** The machine's load averages (1, 5, 15 minutes), as `uptime` prints them. */
export function loadAverage(): string {
  return os
    .loadavg()
    .map((l) => l.toFixed(2))
    .join(' ');
}

/** A benchmark's database on the DATABASE_URL server: its URL, and a drop for the end. */
export async function createBenchDatabase(): Promise<{
  url: string;
  name: string;
  drop: () => Promise<void>;
}> {
  const adminUrl = process.env.DATABASE_URL;
  if (!adminUrl?.startsWith('postgres')) {
    throw new Error(
      'Set DATABASE_URL to a PostgreSQL server (postgres://...) the benchmark may create a database on',
    );
  }
  const name = `ccs_bench_${randomBytes(4).toString('hex')}`;
  await withClient(adminUrl, (c) => c.query(`CREATE DATABASE ${name}`));
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    name,
    drop: async () => {
      await withClient(adminUrl, (c) => c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`));
    },
  };
}

/** `n` add-target items numbered from `from`: what an integrator sends (phone, external id, patient, input). */
export function targetItems(from: number, n: number) {
  return Array.from({ length: n }, (_, i) => ({
    phone_number: `+1555${String(from + i).padStart(7, '0')}`,
    external_id: `p-${from + i}`,
    patient: { first_name: 'Ada', last_name: `Patient ${from + i}`, date_of_birth: '1980-02-03' },
    input_data: { clinic: 'North', visit: from + i },
  }));
}

/**
 * The same rows as one raw multi-row INSERT (the floor the add-targets path is compared with):
 * the payload's JSON.stringify, the statement and its round trip. Returns how many rows it wrote.
 */
export async function rawInsertTargets(
  raw: Client,
  organizationId: string,
  campaignId: string,
  items: ReturnType<typeof targetItems>,
): Promise<number> {
  const { rowCount } = await raw.query(
    `INSERT INTO targets (id, organization_id, campaign_id, external_id, phone_number, patient,
                          input_data, status, created_at, updated_at)
     SELECT gen_random_uuid(), $1, $2, r.external_id, r.phone_number, r.patient, r.input_data,
            'Pending', now(), now()
     FROM jsonb_to_recordset($3::jsonb)
       AS r(external_id text, phone_number text, patient jsonb, input_data jsonb)`,
    [organizationId, campaignId, JSON.stringify(items)],
  );
  return rowCount ?? 0;
}

export function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}
