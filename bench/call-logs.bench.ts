/**
 * Call-log list at scale (issue 10): BENCH_CALL_LOGS call logs (default 1,000,000) in one organization
 * over 4 campaigns, inserted by one set-based SQL statement (through the count triggers, so the
 * counters follow), then p50/p95 of `GET /api/v1/call-logs` over HTTP, limit 10: first, random and
 * last pages without a filter, for one campaign, for a date window over a tenth of the creation
 * times, and for a campaign and that window together. The baseline is the statement pair the list
 * ran before (count(*) of the matching rows beside ORDER BY id LIMIT 10 OFFSET n) on random pages,
 * raw on the same database in the same run.
 *
 *   DATABASE_URL=postgres://postgres@127.0.0.1:5432/test npm run bench:call-logs
 */
import { performance } from 'perf_hooks';
import {
  baseUrl,
  benchApi,
  benchCampaign,
  loadAverage,
  round,
  runBench,
  serverVersion,
  stats,
  SummaryRow,
  withBenchService,
  writeResult,
} from './support.js';

const CALL_LOGS = Number(process.env.BENCH_CALL_LOGS ?? 1_000_000);
const SAMPLES = Number(process.env.BENCH_SAMPLES ?? 40);
const LIMIT = 10;
const CAMPAIGNS = 4;
/** The logs' creation times are spread over this many days, one after the other in id order. */
const DAYS = 100;

async function main(): Promise<void> {
  const loadBefore = loadAverage();
  await withBenchService(
    { ROLE: 'api', RATE_LIMIT_REQUESTS: '0' },
    async ({ service, raw, dbName }) => {
      const { api, key, organizationId } = await benchApi(service, dbName);
      const campaigns: string[] = [];
      for (let i = 0; i < CAMPAIGNS; i++) {
        campaigns.push(await benchCampaign(api, `logs ${i}`));
      }

      const fillStart = performance.now();
      await raw.query(
        `INSERT INTO call_logs (organization_id, campaign_id, target_id, attempt, to_number,
                                from_number, provider, provider_call_id, outcome, ended_reason,
                                started_at, ended_at, duration_seconds, created_at)
         SELECT $1, ($2::uuid[])[1 + n % $3], gen_random_uuid(), 1,
                '+1555' || lpad((n % 10000000)::text, 7, '0'), '+15550000000', 'simulator',
                'sim-' || n, 'completed', 'customer-ended-call', t, t + interval '90 seconds', 90, t
         FROM generate_series(0, $4 - 1) AS n,
              LATERAL (SELECT timestamptz '2026-01-01T00:00:00Z'
                              + n * (interval '1 day' * $5 / $4) AS t) AS at`,
        [organizationId, campaigns, CAMPAIGNS, CALL_LOGS, DAYS],
      );
      await raw.query('VACUUM ANALYZE call_logs');
      const fillSeconds = (performance.now() - fillStart) / 1000;

      // A window over the middle tenth of the creation times.
      const dayMs = 24 * 3600 * 1000;
      const t0 = Date.parse('2026-01-01T00:00:00Z');
      const windowFrom = new Date(t0 + DAYS * dayMs * 0.45).toISOString();
      const windowTo = new Date(t0 + DAYS * dayMs * 0.55).toISOString();
      // And one over all but the first and last twentieth: most of the logs match.
      const wide = {
        from_date: new Date(t0 + DAYS * dayMs * 0.05).toISOString(),
        to_date: new Date(t0 + DAYS * dayMs * 0.95).toISOString(),
      };

      const base = baseUrl(service);
      const get = async (query: Record<string, string | number>) => {
        const url = `${base}/api/v1/call-logs?${new URLSearchParams(
          Object.entries(query).map(([k, v]): [string, string] => [k, String(v)]),
        )}`;
        const start = performance.now();
        const res = await fetch(url, { headers: { 'X-API-Key': key } });
        const body: any = await res.json();
        const ms = performance.now() - start;
        if (!res.ok) throw new Error(`GET ${url}: ${res.status} ${JSON.stringify(body)}`);
        return { ms, body };
      };
      const random = (pages: number) => Math.floor(Math.random() * pages);
      const sample = async (
        query: Record<string, string>,
        pageOf: (pages: number, i: number) => number,
      ) => {
        const pages = (await get({ ...query, limit: LIMIT })).body.page_count as number;
        const ms: number[] = [];
        for (let i = 0; i < SAMPLES; i++) {
          const { ms: one, body } = await get({ ...query, limit: LIMIT, page: pageOf(pages, i) });
          if (body.call_logs.length === 0 && pages > 0)
            throw new Error(`page ${body.page} is empty`);
          ms.push(one);
        }
        return stats(ms);
      };
      const first = (_: number, i: number) => i % 5;
      const last = (pages: number, i: number) => pages - 1 - (i % 5);

      for (let i = 0; i < 5; i++) await get({ limit: LIMIT, page: i });

      const campaign = { campaign_id: campaigns[0] };
      const window = { from_date: windowFrom, to_date: windowTo };
      const measured = {
        first_pages: await sample({}, first),
        random_pages: await sample({}, random),
        last_pages: await sample({}, last),
        campaign_first_pages: await sample(campaign, first),
        campaign_random_pages: await sample(campaign, random),
        campaign_last_pages: await sample(campaign, last),
        dates_first_pages: await sample(window, first),
        dates_random_pages: await sample(window, random),
        dates_last_pages: await sample(window, last),
        campaign_dates_random_pages: await sample({ ...campaign, ...window }, random),
        nine_tenths_dates_first_pages: await sample(wide, first),
        nine_tenths_dates_random_pages: await sample(wide, random),
      };

      // Baseline: the old statement pair for random pages of the whole organization.
      const baselineMs: number[] = [];
      const pages = Math.ceil(CALL_LOGS / LIMIT);
      for (let i = 0; i < Math.min(SAMPLES, 20); i++) {
        const offset = random(pages) * LIMIT;
        const start = performance.now();
        await Promise.all([
          raw.query(`SELECT count(*) AS total FROM call_logs WHERE organization_id = $1`, [
            organizationId,
          ]),
          raw.query(
            `SELECT * FROM call_logs WHERE organization_id = $1 ORDER BY id LIMIT $2 OFFSET $3`,
            [organizationId, LIMIT, offset],
          ),
        ]);
        baselineMs.push(performance.now() - start);
      }
      const baseline = stats(baselineMs);

      const GOAL_MS = 100;
      const summary: SummaryRow[] = Object.entries(measured).map(([name, s]) => ({
        path: `GET call-logs, ${CALL_LOGS.toLocaleString('en')} logs: ${name.replace(/_/g, ' ')} p95`,
        ours: `${s.p95} ms`,
        baseline: `${baseline.p95} ms (old, random page)`,
        ratio: round(s.p95 / baseline.p95),
        goal: `< ${GOAL_MS} ms`,
        met: s.p95 < GOAL_MS,
      }));

      writeResult('call-logs', {
        call_logs: CALL_LOGS,
        campaigns: CAMPAIGNS,
        limit: LIMIT,
        samples: SAMPLES,
        fill_seconds: round(fillSeconds),
        ms: measured,
        baseline_random_pages_ms: baseline,
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
