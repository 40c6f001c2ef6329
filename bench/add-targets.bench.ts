/**
 * Add-targets benchmark (issue 10): 5,000 targets through `POST /api/v1/campaigns/{id}/targets` end to
 * end over HTTP, against one raw multi-row INSERT of the same rows through `pg`, in the same run on
 * the same PostgreSQL. Each round adds 5,000 new targets to each of two campaigns (one over HTTP, one
 * raw), so both tables grow alike.
 *
 *   DATABASE_URL=postgres://postgres@127.0.0.1:5432/test npm run bench:add-targets
 *
 * BENCH_ROUNDS (default 7) measured rounds follow 2 warm-up rounds; medians are reported.
 */
import { performance } from 'perf_hooks';
import {
  benchApi,
  benchCampaign,
  loadAverage,
  median,
  rawInsertTargets,
  round,
  runBench,
  serverVersion,
  targetItems,
  withBenchService,
  writeResult,
} from './support.js';

const TARGETS = 5000;
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 7);
const WARMUP = 2;

async function main(): Promise<void> {
  const loadBefore = loadAverage();
  await withBenchService(
    { ROLE: 'api', RATE_LIMIT_REQUESTS: '0' },
    async ({ service, raw, dbName }) => {
      const { api, organizationId } = await benchApi(service, dbName);
      const httpCampaign = await benchCampaign(api, 'http');
      const rawCampaign = await benchCampaign(api, 'raw');

      const http: number[] = [];
      const sql: number[] = [];
      for (let r = 0; r < WARMUP + ROUNDS; r++) {
        const items = targetItems(r * TARGETS, TARGETS);

        const h0 = performance.now();
        const added = await api('POST', `/api/v1/campaigns/${httpCampaign}/targets`, {
          targets: items,
        });
        const h1 = performance.now();
        if (added.created !== TARGETS) throw new Error(`HTTP created ${added.created}`);

        const r0 = performance.now();
        const inserted = await rawInsertTargets(raw, organizationId, rawCampaign, items);
        const r1 = performance.now();
        if (inserted !== TARGETS) throw new Error(`raw inserted ${inserted}`);

        if (r >= WARMUP) {
          http.push(h1 - h0);
          sql.push(r1 - r0);
        }
      }

      const ratio = median(http) / median(sql);
      writeResult('add-targets', {
        targets: TARGETS,
        rounds: ROUNDS,
        http_ms: { median: round(median(http)), min: round(Math.min(...http)) },
        raw_sql_ms: { median: round(median(sql)), min: round(Math.min(...sql)) },
        ratio: round(ratio),
        load_average: { before: loadBefore, after: loadAverage() },
        summary: [
          {
            path: `POST .../targets (${TARGETS} targets), median`,
            ours: `${Math.round(median(http))} ms`,
            baseline: `${Math.round(median(sql))} ms raw INSERT`,
            ratio: round(ratio),
            goal: '≤ 2x',
            met: ratio <= 2,
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
