/**
 * `GET /api/v1/targets/{id}` throughput (issue 10): requests per second from 32 keep-alive connections,
 * against a bare `node:http` + `pg` server doing the same key and target lookups (hash the key, look it
 * up, read the target of its organization, send it as JSON), in the same process, pool size and run.
 * The load comes from a child process (bench/http-load.ts), so it does not share the server's event
 * loop. Rounds alternate bare, service, bare, service, ... and medians are reported.
 *
 *   DATABASE_URL=postgres://postgres@127.0.0.1:5432/test npm run bench:target-get
 *
 * BENCH_SECONDS (default 8) per round, BENCH_ROUNDS (default 3) per server, BENCH_CONNECTIONS (32).
 */
import { fork } from 'child_process';
import { createHash } from 'crypto';
import { createServer, Server } from 'http';
import { AddressInfo } from 'net';
import { join } from 'path';
import { Pool } from 'pg';
import { TS_LOADER } from '../test/support/run-process.js';
import type { LoadResult } from './http-load.js';
import {
  baseUrl,
  benchApi,
  benchCampaign,
  loadAverage,
  median,
  round,
  runBench,
  serverVersion,
  targetItems,
  withBenchService,
  writeResult,
} from './support.js';

const SECONDS = Number(process.env.BENCH_SECONDS ?? 8);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 32);
const TARGETS = 1000;
/** The service's pool size (data-source.options.ts), so both servers get as many connections. */
const POOL_SIZE = 10;

/** The bare server: no framework, no validation, no cache; the two lookups and JSON. */
function startBareServer(databaseUrl: string): Promise<{ server: Server; pool: Pool }> {
  const pool = new Pool({ connectionString: databaseUrl, max: POOL_SIZE });
  const server = createServer((req, res) => {
    const match = /^\/api\/v1\/targets\/([0-9a-f-]{36})$/.exec(req.url ?? '');
    const key = req.headers['x-api-key'];
    const answer = (status: number, body: unknown) => {
      const json = JSON.stringify(body);
      res.writeHead(status, {
        'Content-Type': 'application/json; charset=utf-8',
        'Content-Length': Buffer.byteLength(json),
      });
      res.end(json);
    };
    if (!match) return answer(404, { detail: 'Not Found' });
    if (typeof key !== 'string') return answer(401, { detail: 'Not authenticated' });
    const hash = createHash('sha256').update(key, 'utf8').digest('hex');
    (async () => {
      const keys = await pool.query(
        'SELECT id, organization_id FROM api_keys WHERE key_hash = $1 AND revoked_at IS NULL',
        [hash],
      );
      if (!keys.rows[0]) return answer(401, { detail: 'Invalid API key' });
      const targets = await pool.query(
        'SELECT * FROM targets WHERE id = $1 AND organization_id = $2',
        [match[1], keys.rows[0].organization_id],
      );
      if (!targets.rows[0]) return answer(404, { detail: 'Target not found' });
      answer(200, targets.rows[0]);
    })().catch(() => answer(500, { detail: 'Internal Server Error' }));
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve({ server, pool })));
}

function loadFrom(
  base: string,
  paths: string[],
  headers: Record<string, string>,
): Promise<LoadResult> {
  const child = fork(join(import.meta.dirname, 'http-load.ts'), [], {
    execArgv: TS_LOADER,
  });
  return new Promise((resolve, reject) => {
    child.once('message', (result) => resolve(result as LoadResult));
    child.once('exit', (code) => {
      if (code !== 0) reject(new Error(`load process exited with ${code}`));
    });
    child.send({ base, paths, headers, connections: CONNECTIONS, seconds: SECONDS });
  });
}

async function main(): Promise<void> {
  const loadBefore = loadAverage();
  await withBenchService(
    { ROLE: 'api', RATE_LIMIT_REQUESTS: '0' },
    async ({ service, raw, dbName, env }) => {
      const { api, key } = await benchApi(service, dbName);
      const campaign = await benchCampaign(api, 'get');
      const added = await api('POST', `/api/v1/campaigns/${campaign}/targets`, {
        targets: targetItems(0, TARGETS),
      });
      await raw.query('VACUUM ANALYZE targets');
      const paths = (added.target_ids as string[]).map((id) => `/api/v1/targets/${id}`);
      const headers = { 'X-API-Key': key };

      const bare = await startBareServer(env.DATABASE_URL!);
      const bareBase = `http://127.0.0.1:${(bare.server.address() as AddressInfo).port}`;
      const ours = baseUrl(service);
      const bareRates: number[] = [];
      const ourRates: number[] = [];
      const rounds: Array<{ server: string } & LoadResult> = [];
      try {
        // Warm-up for both: connections, JIT, the key cache.
        await loadFrom(bareBase, paths, headers);
        await loadFrom(ours, paths, headers);
        for (let r = 0; r < ROUNDS; r++) {
          for (const [name, base, rates] of [
            ['bare', bareBase, bareRates],
            ['service', ours, ourRates],
          ] as const) {
            const result = await loadFrom(base, paths, headers);
            if (result.errors > 0) throw new Error(`${name}: ${result.errors} failed requests`);
            rates.push(result.requests / result.seconds);
            rounds.push({ server: name, ...result });
          }
        }
      } finally {
        await new Promise((resolve) => bare.server.close(resolve));
        await bare.pool.end();
      }

      const ratio = median(ourRates) / median(bareRates);
      writeResult('target-get', {
        connections: CONNECTIONS,
        seconds_per_round: SECONDS,
        rounds,
        service_per_second: Math.round(median(ourRates)),
        bare_per_second: Math.round(median(bareRates)),
        ratio: round(ratio),
        load_average: { before: loadBefore, after: loadAverage() },
        summary: [
          {
            path: `GET /api/v1/targets/{id}, ${CONNECTIONS} connections, req/s`,
            ours: `${Math.round(median(ourRates))}/s`,
            baseline: `${Math.round(median(bareRates))}/s bare node:http + pg`,
            ratio: round(ratio),
            goal: '≥ 0.8x',
            met: ratio >= 0.8,
          },
        ],
        postgres: await serverVersion(raw),
        node: process.version,
        at: new Date().toISOString(),
      });
    },
  );
}

runBench(main);
