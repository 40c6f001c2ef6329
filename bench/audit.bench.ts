/**
 * What the audit trail costs a read (issue 43): `GET /api/v1/targets/{id}` and a 100-target list
 * page, requests per second from 32 keep-alive connections, with auditing on against the same
 * service with it off, in the same process, database and run. "Off" is the same build with the audit
 * interceptor bypassed (its `intercept` swapped for a pass-through between rounds): there is no
 * setting that turns auditing off. Rounds alternate off, on, off, on, ... and medians are reported.
 * The load comes from a child process (bench/http-load.ts).
 *
 *   DATABASE_URL=postgres://postgres@127.0.0.1:5432/test npm run bench:audit
 *
 * BENCH_SECONDS (default 8) per round, BENCH_ROUNDS (default 3) per mode, BENCH_CONNECTIONS (32).
 */
import { fork } from 'child_process';
import { join } from 'path';
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
  setAuditing,
  targetItems,
  withBenchService,
  writeResult,
} from './support.js';

const SECONDS = Number(process.env.BENCH_SECONDS ?? 8);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 32);
const TARGETS = 1000;

function loadFrom(
  base: string,
  paths: string[],
  headers: Record<string, string>,
): Promise<LoadResult> {
  const child = fork(join(import.meta.dirname, 'http-load.ts'), [], { execArgv: TS_LOADER });
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
    async ({ service, raw, dbName }) => {
      const { api, key } = await benchApi(service, dbName);
      const campaign = await benchCampaign(api, 'audit');
      const added = await api('POST', `/api/v1/campaigns/${campaign}/targets`, {
        targets: targetItems(0, TARGETS),
      });
      await raw.query('VACUUM ANALYZE targets');
      const headers = { 'X-API-Key': key };
      const base = baseUrl(service);
      const workloads = {
        get: (added.target_ids as string[]).map((id) => `/api/v1/targets/${id}`),
        // Ten different pages of 100, so each event names another hundred targets.
        list: Array.from(
          { length: 10 },
          (_, page) => `/api/v1/campaigns/${campaign}/targets?limit=100&page=${page}`,
        ),
      };
      const rates = {
        get: { on: [] as number[], off: [] as number[] },
        list: { on: [] as number[], off: [] as number[] },
      };
      const rounds: Array<{ workload: string; auditing: string } & LoadResult> = [];
      try {
        for (const [name, paths] of Object.entries(workloads) as [
          keyof typeof workloads,
          string[],
        ][]) {
          // Warm-up for both modes: connections, JIT, the key cache, the audit table's pages.
          for (const on of [false, true]) {
            setAuditing(on);
            await loadFrom(base, paths, headers);
          }
          for (let r = 0; r < ROUNDS; r++) {
            for (const on of [false, true]) {
              setAuditing(on);
              const result = await loadFrom(base, paths, headers);
              if (result.errors > 0) throw new Error(`${name}: ${result.errors} failed requests`);
              rates[name][on ? 'on' : 'off'].push(result.requests / result.seconds);
              rounds.push({ workload: name, auditing: on ? 'on' : 'off', ...result });
            }
          }
        }
      } finally {
        setAuditing(true);
      }
      const [{ events }] = (
        await raw.query<{ events: string }>('SELECT count(*) AS events FROM audit_events')
      ).rows;
      const row = (name: keyof typeof workloads, path: string) => {
        const on = median(rates[name].on);
        const off = median(rates[name].off);
        return {
          path,
          ours: `${Math.round(on)}/s`,
          baseline: `${Math.round(off)}/s auditing off`,
          ratio: round(on / off),
          goal: '≥ 0.8x',
          met: on / off >= 0.8,
        };
      };
      const summary = [
        row('get', `GET /api/v1/targets/{id}, auditing on, ${CONNECTIONS} connections, req/s`),
        row('list', `GET .../targets?limit=100 (one event per page), auditing on, req/s`),
      ];
      writeResult('audit', {
        connections: CONNECTIONS,
        seconds_per_round: SECONDS,
        rounds,
        audit_events_written: Number(events),
        get_on_per_second: Math.round(median(rates.get.on)),
        get_off_per_second: Math.round(median(rates.get.off)),
        list_on_per_second: Math.round(median(rates.list.on)),
        list_off_per_second: Math.round(median(rates.list.off)),
        load_average: { before: loadBefore, after: loadAverage() },
        summary,
        postgres: await serverVersion(raw),
        node: process.version,
        at: new Date().toISOString(),
      });
    },
  );
}

runBench(main);
