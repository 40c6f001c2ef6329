/**
 * Batch step benchmark (a script, not a test): 5000 updates through
 * `POST /api/v1/campaigns/{id}/targets/step/{friendly_id}` end to end over HTTP, against the same merge
 * done by one raw SQL statement with `pg`, in the same run, on the same PostgreSQL.
 *
 *   DATABASE_URL=postgres://postgres@127.0.0.1:5432/test npm run bench:steps
 *
 * DATABASE_URL names a server where the script may create (and drops afterwards) a database of its own.
 * BENCH_ROUNDS (default 7) measured rounds follow 2 warm-up rounds; medians are reported.
 */
import 'reflect-metadata';
import { randomBytes } from 'crypto';
import { mkdirSync, writeFileSync } from 'fs';
import { join } from 'path';
import { Client } from 'pg';
import { startService } from '../src/bootstrap';
import { OrganizationService } from '../src/modules/organization/application/organization.service';

const UPDATES = 5000;
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 7);
const WARMUP = 2;

const RAW_MERGE = `
  UPDATE targets t SET input_data = t.input_data || u.d, updated_at = now()
  FROM jsonb_to_recordset($2::jsonb) AS u(xid text, d jsonb)
  WHERE t.campaign_id = $1::uuid AND t.external_id = u.xid`;

async function main(): Promise<void> {
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

  const service = await startService({
    ...process.env,
    DATABASE_URL: databaseUrl,
    ROLE: 'api',
    PORT: '0',
    HOST: '127.0.0.1',
    LOG_LEVEL: 'silent',
    DEMO_SEED: 'false',
  });
  const raw = new Client({ connectionString: databaseUrl });
  await raw.connect();
  try {
    const address = service.app.getHttpServer().address();
    const base = `http://127.0.0.1:${address.port}`;
    const organizations = service.app.get(OrganizationService);
    const organization = await organizations.createOrganization(`bench-${dbName}`);
    const { key } = await organizations.createApiKey(organization.id, 'bench');

    const api = async (method: string, path: string, body: unknown): Promise<any> => {
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

    // Two campaigns with the same 5000 targets: one updated over HTTP, one by the raw statement.
    const campaigns: string[] = [];
    for (const name of ['http', 'raw']) {
      const campaign = await api('POST', '/api/v1/campaigns', {
        name: `bench ${name}`,
        type: 'patient',
        steps: [{ friendly_id: 'labs', type: 'webhook', on_receive: 'merge' }],
      });
      await api('POST', `/api/v1/campaigns/${campaign.id}/targets`, {
        targets: Array.from({ length: UPDATES }, (_, i) => ({
          phone_number: `+1555${String(i).padStart(7, '0')}`,
          external_id: `patient-${i}`,
          input_data: { first_visit: true, clinic: 'North' },
        })),
      });
      campaigns.push(campaign.id);
    }
    const [httpCampaign, rawCampaign] = campaigns;

    const updates = (round: number) =>
      Array.from({ length: UPDATES }, (_, i) => ({
        external_id: `patient-${i}`,
        input_data: {
          lab_result: i % 3 === 0 ? 'positive' : 'negative',
          checked_at: new Date(Date.UTC(2026, 0, 1, 0, 0, round)).toISOString(),
          score: (i * 7919) % 1000,
          notes: `round ${round}: follow up in two weeks`,
          flags: { fasting: i % 2 === 0, urgent: false },
        },
      }));

    const http: number[] = [];
    const sql: number[] = [];
    for (let round = 0; round < WARMUP + ROUNDS; round++) {
      const batch = updates(round);

      const h0 = performance.now();
      const result = await api('POST', `/api/v1/campaigns/${httpCampaign}/targets/step/labs`, {
        updates: batch,
      });
      const h1 = performance.now();
      if (result.updated !== UPDATES) throw new Error(`HTTP updated ${result.updated}`);

      const r0 = performance.now();
      const payload = JSON.stringify(batch.map((u) => ({ xid: u.external_id, d: u.input_data })));
      const { rowCount } = await raw.query(RAW_MERGE, [rawCampaign, payload]);
      const r1 = performance.now();
      if (rowCount !== UPDATES) throw new Error(`raw updated ${rowCount}`);

      if (round >= WARMUP) {
        http.push(h1 - h0);
        sql.push(r1 - r0);
      }
    }

    const result = {
      updates: UPDATES,
      rounds: ROUNDS,
      http_ms: { median: median(http), min: Math.min(...http), max: Math.max(...http) },
      raw_sql_ms: { median: median(sql), min: Math.min(...sql), max: Math.max(...sql) },
      ratio: median(http) / median(sql),
      postgres: (await raw.query('SHOW server_version')).rows[0].server_version,
      node: process.version,
      at: new Date().toISOString(),
    };
    console.log(JSON.stringify(result, null, 2));
    const dir = join(__dirname, 'results');
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, 'batch-step.json'), JSON.stringify(result, null, 2) + '\n');
  } finally {
    await raw.end();
    await service.close();
    await withClient(adminUrl, (c) => c.query(`DROP DATABASE IF EXISTS ${dbName} WITH (FORCE)`));
  }
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

async function withClient<T>(url: string, fn: (c: Client) => Promise<T>): Promise<T> {
  const client = new Client({ connectionString: url });
  await client.connect();
  try {
    return await fn(client);
  } finally {
    await client.end();
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
