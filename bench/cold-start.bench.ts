/**
 * Cold start (issue 10): from spawning `node dist/main.js` (the built service, as `npm start` runs it)
 * to the first 200 from `GET /api/v1/health`, on PostgreSQL with the migrations already applied.
 * The baseline, in the same run, is a bare `node:http` + `pg` process that connects, runs `SELECT 1`
 * and answers the same health route. The first start on the empty database (which applies every
 * migration and creates the job queue's schema) is reported apart.
 *
 *   DATABASE_URL=postgres://postgres@127.0.0.1:5432/test npm run bench:cold-start
 *
 * BENCH_ROUNDS (default 7) starts of each, alternating; medians are reported. BENCH_ROLE (default
 * `all`, what `npm start` runs) picks the service's ROLE. Builds dist/ first if it is stale.
 */
import { ChildProcess, spawn, spawnSync } from 'child_process';
import { readFileSync } from 'fs';
import { createServer } from 'net';
import { tmpdir } from 'os';
import { join } from 'path';
import { performance } from 'perf_hooks';
import {
  createBenchDatabase,
  loadAverage,
  median,
  round,
  runBench,
  sleep,
  writeResult,
} from './support.js';

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 7);
const ROLE = process.env.BENCH_ROLE ?? 'all';
const GOAL_MS = 1500;
const ROOT = join(import.meta.dirname, '..');

/** The baseline process: what any Node service on pg needs before it can say it is healthy. */
const BARE_SERVER = `
const http = require('http');
const { Pool } = require('pg');
const pool = new Pool({ connectionString: process.env.DATABASE_URL, max: 10 });
pool.query('SELECT 1').then(() => {
  http.createServer((req, res) => {
    pool.query('SELECT 1').then(() => {
      res.writeHead(200, { 'Content-Type': 'application/json' });
      res.end('{"status":"ok"}');
    });
  }).listen(Number(process.env.PORT), '127.0.0.1');
});`;

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

/**
 * CPU time (user + system) a process has used so far, from /proc (Linux; null elsewhere). On a shared
 * machine it moves far less with the load than the wall-clock time does.
 */
function cpuMs(pid: number | undefined): number | null {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
    // utime and stime are fields 14 and 15 of stat, in clock ticks (100 a second on Linux).
    return (Number(fields[11]) + Number(fields[12])) * 10;
  } catch {
    return null;
  }
}

interface Start {
  ms: number;
  cpuMs: number | null;
}

/**
 * Spawns, waits for the first 200 from the health route, returns the wall-clock time it took and the
 * CPU time the process had used by then, then stops it.
 */
async function timeToHealthy(args: string[], env: Record<string, string>): Promise<Start> {
  const port = await freePort();
  const t0 = performance.now();
  const child: ChildProcess = spawn(process.execPath, args, {
    cwd: tmpdir(), // no .env of the checkout
    env: { ...env, PORT: String(port) },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  let exited = false;
  const exit = new Promise<void>((resolve) =>
    child.once('exit', () => {
      exited = true;
      resolve();
    }),
  );
  try {
    for (;;) {
      if (exited) throw new Error(`${args.join(' ')} exited before it was healthy`);
      const ok = await fetch(`http://127.0.0.1:${port}/api/v1/health`).then(
        (res) => res.status === 200,
        () => false,
      );
      if (ok) return { ms: performance.now() - t0, cpuMs: cpuMs(child.pid) };
      // Poll every few ms: the resolution of the measurement, not a wait for something to happen.
      await sleep(5);
    }
  } finally {
    child.kill('SIGTERM');
    await exit;
  }
}

async function main(): Promise<void> {
  const build = spawnSync(process.execPath, [join(ROOT, 'scripts', 'ensure-built.js')], {
    cwd: ROOT,
    stdio: 'inherit',
  });
  if (build.status !== 0) throw new Error('build failed');

  const loadBefore = loadAverage();
  const database = await createBenchDatabase();
  try {
    const serviceEnv: Record<string, string> = {
      ...(process.env as Record<string, string>),
      DATABASE_URL: database.url,
      HOST: '127.0.0.1',
      ROLE,
      LOG_LEVEL: 'silent',
      DEMO_SEED: 'false',
      NODE_ENV: 'production',
    };
    const service = [join(ROOT, 'dist', 'main.js')];
    const bare = ['-e', BARE_SERVER];
    const bareEnv = { ...serviceEnv, NODE_PATH: join(ROOT, 'node_modules') };

    const firstStart = await timeToHealthy(service, serviceEnv);
    const ourStarts: Start[] = [];
    const bareStarts: Start[] = [];
    for (let r = 0; r < ROUNDS; r++) {
      bareStarts.push(await timeToHealthy(bare, bareEnv));
      ourStarts.push(await timeToHealthy(service, serviceEnv));
    }
    const ours = ourStarts.map((s) => s.ms);
    const baseline = bareStarts.map((s) => s.ms);
    const cpu = (starts: Start[]) =>
      starts.every((s) => s.cpuMs !== null) ? median(starts.map((s) => s.cpuMs!)) : null;

    const ratio = median(ours) / median(baseline);
    writeResult('cold-start', {
      role: ROLE,
      rounds: ROUNDS,
      first_start_with_migrations_ms: round(firstStart.ms),
      cpu_ms_median: { service: cpu(ourStarts), bare: cpu(bareStarts) },
      service_ms: {
        median: round(median(ours)),
        min: round(Math.min(...ours)),
        all: ours.map(round),
      },
      bare_ms: {
        median: round(median(baseline)),
        min: round(Math.min(...baseline)),
        all: baseline.map(round),
      },
      ratio: round(ratio),
      load_average: { before: loadBefore, after: loadAverage() },
      summary: [
        {
          path: `cold start to healthy /api/v1/health (ROLE=${ROLE}), median`,
          ours: `${Math.round(median(ours))} ms`,
          baseline: `${Math.round(median(baseline))} ms bare node:http + pg`,
          ratio: round(ratio),
          goal: `< ${GOAL_MS} ms`,
          met: median(ours) < GOAL_MS,
        },
      ],
      node: process.version,
      at: new Date().toISOString(),
    });
  } finally {
    await database.drop();
  }
}

runBench(main);
