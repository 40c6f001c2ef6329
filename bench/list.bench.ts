/**
 * Target lists at scale (issue 10): one campaign of BENCH_LIST_TARGETS targets (default 1,000,000), built
 * through the API in requests of 10,000, then p50/p95 of list requests over HTTP: first pages, random
 * pages, last pages, a status filter, date filters, and a whole cursor walk. The baseline is what the
 * list did before (count(*) of the matching rows plus an OFFSET walk), run as raw SQL on the same
 * database in the same run.
 *
 *   DATABASE_URL=postgres://... BENCH_LIST_TARGETS=200000 npm run bench:list
 */
import { performance } from 'perf_hooks';
import {
  baseUrl,
  benchApi,
  benchCampaign,
  round,
  runBench,
  serverVersion,
  stats,
  SummaryRow,
  withBenchService,
  writeResult,
} from './support.js';

const TARGETS = Number(process.env.BENCH_LIST_TARGETS ?? 1_000_000);
const PER_REQUEST = 10_000;
const SAMPLES = Number(process.env.BENCH_SAMPLES ?? 40);
const LIMIT = 10;
const STATUSES = ['Pending', 'Finished', 'Failed', 'To review'];
/** How far apart the engine reaches targets in the campaign (see the calls placed below). */
const CALL_EVERY_MS = 50;

async function main(): Promise<void> {
  // No rate limit: the cursor walk alone makes thousands of requests with one key.
  await withBenchService(
    { ROLE: 'api', RATE_LIMIT_REQUESTS: '0' },
    async ({ service, raw, dbName }) => {
      const { api, key, organizationId } = await benchApi(service, dbName);
      const campaignId = await benchCampaign(api, 'bench list');
      const path = `/api/v1/campaigns/${campaignId}`;

      const buildStart = performance.now();
      for (let done = 0; done < TARGETS; done += PER_REQUEST) {
        const n = Math.min(PER_REQUEST, TARGETS - done);
        await api('POST', `${path}/targets`, {
          targets: Array.from({ length: n }, (_, i) => ({
            phone_number: `+1555${String(done + i).padStart(7, '0')}`,
            external_id: `p-${done + i}`,
            input_data: { clinic: 'North', visit: done + i },
          })),
        });
      }
      const buildSeconds = (performance.now() - buildStart) / 1000;

      const base = baseUrl(service);
      const get = async (query: Record<string, string | number>) => {
        const url = `${base}${path}/targets?${new URLSearchParams(
          Object.entries(query).map(([k, v]): [string, string] => [k, String(v)]),
        )}`;
        const t0 = performance.now();
        const res = await fetch(url, { headers: { 'X-API-Key': key } });
        const body: any = await res.json();
        const ms = performance.now() - t0;
        if (!res.ok) throw new Error(`GET ${url}: ${res.status} ${JSON.stringify(body)}`);
        return { ms, body };
      };
      const pageCount = async (query: Record<string, string>) =>
        (await get({ ...query, limit: LIMIT })).body.page_count as number;
      const sample = async (
        query: Record<string, string>,
        pageOf: (pages: number, i: number) => number,
      ) => {
        const pages = await pageCount(query);
        const ms: number[] = [];
        for (let i = 0; i < SAMPLES; i++) {
          ms.push((await get({ ...query, limit: LIMIT, page: pageOf(pages, i) })).ms);
        }
        return stats(ms);
      };
      const random = (pages: number) => Math.floor(Math.random() * pages);

      // A freshly loaded campaign: every target Pending. That status's random pages, after what
      // autovacuum would do by itself.
      await raw.query('VACUUM ANALYZE targets');
      for (let i = 0; i < 5; i++) await get({ limit: LIMIT, page: i });
      const everyTargetStatusRandomPages = await sample({ status: 'Pending' }, random);

      // Statuses and last calls as the calling engine would leave them (through the triggers, so the
      // counters follow), then what autovacuum would do by itself on a table this size. The engine
      // reaches the targets in creation order, one every CALL_EVERY_MS from a day after the first was
      // added (20 a second: a deployment with a few thousand lines busy); a quarter are never called.
      await raw.query(
        `UPDATE targets t SET status = ($2::text[])[1 + (hashtext(t.id::text) & 3)],
              last_call_date = CASE WHEN hashtext(t.id::text) & 3 > 0
                THEN o.first_created + interval '1 day' + o.place * $3 * interval '1 millisecond' END
           FROM (SELECT id, min(created_at) OVER () AS first_created,
                        row_number() OVER (ORDER BY created_at, id) - 1 AS place
                   FROM targets WHERE campaign_id = $1) o
          WHERE t.id = o.id`,
        [campaignId, STATUSES, CALL_EVERY_MS],
      );
      await raw.query('VACUUM ANALYZE targets');
      const { rows: bounds } = await raw.query(
        `SELECT min(created_at) AS lo, max(created_at) AS hi,
                min(last_call_date) AS first_call, max(last_call_date) AS last_call
           FROM targets WHERE campaign_id = $1`,
        [campaignId],
      );
      const lo = new Date(bounds[0].lo).getTime();
      const hi = new Date(bounds[0].hi).getTime();
      // A window over the middle tenth of the campaign's creation times.
      const windowFrom = new Date(lo + (hi - lo) * 0.45).toISOString();
      const windowTo = new Date(lo + (hi - lo) * 0.55).toISOString();
      // And one over all but the first and last twentieth: most of the campaign matches.
      const wideFrom = new Date(lo + (hi - lo) * 0.05).toISOString();
      const wideTo = new Date(lo + (hi - lo) * 0.95).toISOString();
      // Last-call bounds as fractions of the calls' span: before them all (every called target
      // matches), the middle (the later half, or with `to` the earlier), the last hundredth (a poll
      // for recent calls) and a tenth in the middle.
      const firstCall = new Date(bounds[0].first_call).getTime();
      const lastCall = new Date(bounds[0].last_call).getTime();
      const amongCalls = (fraction: number) =>
        new Date(firstCall + (lastCall - firstCall) * fraction).toISOString();
      const beforeEveryCall = new Date(firstCall - 1000).toISOString();
      const lastCallMiddle = amongCalls(0.5);
      const lastCallLatest = amongCalls(0.99);

      // Warm-up: a few requests so the first measured ones do not pay for connections and caches.
      for (let i = 0; i < 5; i++) await get({ limit: LIMIT, page: i });

      const measured = {
        first_pages: await sample({}, (_, i) => i % 5),
        random_pages: await sample({}, random),
        last_pages: await sample({}, (pages, i) => pages - 1 - (i % 5)),
        status_first_pages: await sample({ status: 'Failed' }, (_, i) => i % 5),
        status_random_pages: await sample({ status: 'Failed' }, random),
        every_target_status_random_pages: everyTargetStatusRandomPages,
        date_first_pages: await sample(
          { from_date: windowFrom, to_date: windowTo },
          (_, i) => i % 5,
        ),
        date_random_pages: await sample({ from_date: windowFrom, to_date: windowTo }, random),
        wide_date_first_pages: await sample(
          { from_date: wideFrom, to_date: wideTo },
          (_, i) => i % 5,
        ),
        wide_date_random_pages: await sample({ from_date: wideFrom, to_date: wideTo }, random),
        status_wide_date_first_pages: await sample(
          { status: 'Failed', from_date: wideFrom, to_date: wideTo },
          (_, i) => i % 5,
        ),
        last_call_first_pages: await sample(
          { from_last_call_date: beforeEveryCall },
          (_, i) => i % 5,
        ),
        status_last_call_first_pages: await sample(
          { status: 'Failed', from_last_call_date: beforeEveryCall },
          (_, i) => i % 5,
        ),
        last_call_half_first_pages: await sample(
          { from_last_call_date: lastCallMiddle },
          (_, i) => i % 5,
        ),
        last_call_half_random_pages: await sample({ from_last_call_date: lastCallMiddle }, random),
        last_call_latest_first_pages: await sample(
          { from_last_call_date: lastCallLatest },
          (_, i) => i % 5,
        ),
        status_last_call_half_first_pages: await sample(
          { status: 'Failed', to_last_call_date: lastCallMiddle },
          (_, i) => i % 5,
        ),
        last_call_window_first_pages: await sample(
          { from_last_call_date: amongCalls(0.45), to_last_call_date: amongCalls(0.55) },
          (_, i) => i % 5,
        ),
      };

      // Five of the first targets called again after every other call: a poll for the latest
      // hundredth matches them too, a whole campaign away from the rest.
      await raw.query(
        `UPDATE targets SET last_call_date = $2 WHERE id IN (
           SELECT id FROM targets WHERE campaign_id = $1 ORDER BY created_at, id LIMIT 5)`,
        [campaignId, new Date(lastCall + 1000).toISOString()],
      );
      const retriedPoll = await sample({ from_last_call_date: lastCallLatest }, (_, i) => i % 5);

      // The whole campaign by cursor, 100 a page: every target exactly once.
      const walkMs: number[] = [];
      const seen = new Set<string>();
      let cursor: string | null = null;
      const walkStart = performance.now();
      do {
        const page: { ms: number; body: any } = await get({
          limit: 100,
          ...(cursor ? { cursor } : {}),
        });
        walkMs.push(page.ms);
        for (const target of page.body.targets) seen.add(target.id);
        cursor = page.body.next_cursor;
      } while (cursor);
      const walkSeconds = (performance.now() - walkStart) / 1000;
      if (seen.size !== TARGETS) throw new Error(`cursor walk saw ${seen.size} of ${TARGETS}`);

      // Baseline: the old list statement pair for random pages, raw on the same database.
      const baselineMs: number[] = [];
      const pages = Math.ceil(TARGETS / LIMIT);
      for (let i = 0; i < Math.min(SAMPLES, 20); i++) {
        const offset = random(pages) * LIMIT;
        const t0 = performance.now();
        await Promise.all([
          raw.query(
            `SELECT count(*) AS total FROM targets WHERE campaign_id = $1 AND organization_id = $2`,
            [campaignId, organizationId],
          ),
          raw.query(
            `SELECT * FROM targets WHERE campaign_id = $1 AND organization_id = $2
           ORDER BY created_at, id LIMIT $3 OFFSET $4`,
            [campaignId, organizationId, LIMIT, offset],
          ),
        ]);
        baselineMs.push(performance.now() - t0);
      }
      const baseline = stats(baselineMs);
      const walk = stats(walkMs);

      const row = (name: string, p95: number, goalMs: number): SummaryRow => ({
        path: `GET targets, ${TARGETS.toLocaleString('en')} targets: ${name} p95`,
        ours: `${p95} ms`,
        baseline: `${baseline.p95} ms (old, random page)`,
        ratio: round(p95 / baseline.p95),
        goal: `< ${goalMs} ms`,
        met: p95 < goalMs,
      });
      const summary: SummaryRow[] = [
        row('first pages', measured.first_pages.p95, 50),
        row('random pages', measured.random_pages.p95, 100),
        row('last pages', measured.last_pages.p95, 100),
        row('status, first pages', measured.status_first_pages.p95, 50),
        row('status, random pages', measured.status_random_pages.p95, 100),
        row(
          'status every target has, random pages',
          measured.every_target_status_random_pages.p95,
          100,
        ),
        row('dates, first pages', measured.date_first_pages.p95, 50),
        row('dates, random pages', measured.date_random_pages.p95, 100),
        row('dates (nine tenths), first pages', measured.wide_date_first_pages.p95, 50),
        row('dates (nine tenths), random pages', measured.wide_date_random_pages.p95, 100),
        row(
          'status and dates (nine tenths), first pages',
          measured.status_wide_date_first_pages.p95,
          50,
        ),
        row(
          'last call from (every call after it), first pages',
          measured.last_call_first_pages.p95,
          50,
        ),
        row(
          'status and last call from (every call after it), first pages',
          measured.status_last_call_first_pages.p95,
          50,
        ),
        row(
          'last call from (the later half of calls), first pages',
          measured.last_call_half_first_pages.p95,
          50,
        ),
        row(
          'last call from (the later half of calls), random pages',
          measured.last_call_half_random_pages.p95,
          100,
        ),
        row(
          'last call from (the latest hundredth of calls), first pages',
          measured.last_call_latest_first_pages.p95,
          50,
        ),
        row(
          'status and last call to (the earlier half), first pages',
          measured.status_last_call_half_first_pages.p95,
          50,
        ),
        row(
          'last call window (a tenth, mid-campaign), first pages',
          measured.last_call_window_first_pages.p95,
          50,
        ),
        row(
          'last call from (the latest hundredth, and five early targets called again), first pages',
          retriedPoll.p95,
          50,
        ),
        row('cursor walk, 100 a page', walk.p95, 50),
      ];

      writeResult('list', {
        targets: TARGETS,
        limit: LIMIT,
        samples: SAMPLES,
        build_seconds: round(buildSeconds),
        ms: { ...measured, last_call_latest_retried_first_pages: retriedPoll },
        cursor_walk: { pages: walkMs.length, seconds: round(walkSeconds), ms: walk },
        baseline_random_pages_ms: baseline,
        summary,
        postgres: await serverVersion(raw),
        node: process.version,
        at: new Date().toISOString(),
      });
    },
  );
}

runBench(main);
