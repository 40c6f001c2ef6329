/**
 * Loading a campaign through the API (issue 10): BENCH_LOAD_TARGETS targets (default 1,000,000) as
 * sequential `POST /api/v1/campaigns/{id}/targets` requests of 10,000, targets per second over the
 * requests' own time. The baseline, interleaved in the same run (every BENCH_LOAD_RAW_EVERY-th request,
 * default 10), is one raw multi-row INSERT of the same 10,000 rows into a second campaign of the same
 * table, so both see the table at the same size.
 *
 *   DATABASE_URL=postgres://postgres@127.0.0.1:5432/test npm run bench:load
 */
import { performance } from 'perf_hooks';
import {
  benchApi,
  benchCampaign,
  loadAverage,
  rawInsertTargets,
  round,
  runBench,
  serverVersion,
  targetItems,
  withBenchService,
  writeResult,
} from './support.js';

const TARGETS = Number(process.env.BENCH_LOAD_TARGETS ?? 1_000_000);
const PER_REQUEST = 10_000;
const RAW_EVERY = Number(process.env.BENCH_LOAD_RAW_EVERY ?? 10);
const GOAL_PER_SECOND = 20_000;

async function main(): Promise<void> {
  const loadBefore = loadAverage();
  await withBenchService(
    { ROLE: 'api', RATE_LIMIT_REQUESTS: '0' },
    async ({ service, raw, dbName }) => {
      const { api, organizationId } = await benchApi(service, dbName);
      const campaign = await benchCampaign(api, 'load');
      const rawCampaign = await benchCampaign(api, 'raw');

      let httpMs = 0;
      let rawMs = 0;
      let rawRows = 0;
      const requestMs: number[] = [];
      const wallStart = performance.now();
      for (let done = 0, request = 0; done < TARGETS; done += PER_REQUEST, request++) {
        const items = targetItems(done, Math.min(PER_REQUEST, TARGETS - done));
        const t0 = performance.now();
        const added = await api('POST', `/api/v1/campaigns/${campaign}/targets`, {
          targets: items,
        });
        const ms = performance.now() - t0;
        if (added.created !== items.length) throw new Error(`created ${added.created}`);
        httpMs += ms;
        requestMs.push(ms);

        if (request % RAW_EVERY === 0) {
          const r0 = performance.now();
          rawRows += await rawInsertTargets(raw, organizationId, rawCampaign, items);
          rawMs += performance.now() - r0;
        }
      }
      const wallSeconds = (performance.now() - wallStart) / 1000;

      const perSecond = Math.round(TARGETS / (httpMs / 1000));
      const rawPerSecond = Math.round(rawRows / (rawMs / 1000));
      writeResult('load', {
        targets: TARGETS,
        per_request: PER_REQUEST,
        http_seconds: round(httpMs / 1000),
        targets_per_second: perSecond,
        request_ms: {
          first: round(requestMs[0]),
          last: round(requestMs[requestMs.length - 1]),
          max: round(Math.max(...requestMs)),
        },
        raw_rows: rawRows,
        raw_rows_per_second: rawPerSecond,
        ratio_to_raw: round(perSecond / rawPerSecond),
        wall_seconds_including_raw: round(wallSeconds),
        load_average: { before: loadBefore, after: loadAverage() },
        summary: [
          {
            path: `load ${TARGETS.toLocaleString('en')} targets, ${PER_REQUEST.toLocaleString('en')} a request`,
            ours: `${perSecond.toLocaleString('en')}/s`,
            baseline: `${rawPerSecond.toLocaleString('en')}/s raw INSERT`,
            ratio: round(perSecond / rawPerSecond),
            goal: `≥ ${GOAL_PER_SECOND.toLocaleString('en')}/s`,
            met: perSecond >= GOAL_PER_SECOND,
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
