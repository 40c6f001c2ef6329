/**
 * Target lists at scale (issues 10 and 33): campaigns of BENCH_LIST_TARGETS targets each (default
 * 1,000,000), then p50/p95 of list requests over HTTP: first, random, sequential and last pages, a
 * status filter, creation windows, last-call bounds, their combinations, and a whole cursor walk. The
 * baseline is what the list did before (count(*) of the campaign's rows plus an OFFSET walk to a
 * random page), run as raw SQL on the same database in the same run. Every query's `page_count` is
 * checked against a raw count of its matching rows: an exact count is part of the goal (with p95 under
 * GOAL_MS for every query, issue 33); a mismatch fails the run once the results are written.
 * Every query is measured in three phases once the statuses and last calls are set (issue 45): right
 * after that change, with nothing folded, vacuumed or analyzed by hand (only what the service and
 * the server do on their own); a minute after it, by the clock; and settled, folded and vacuumed and
 * analyzed by hand. The goal holds in every phase.
 *
 * Two shapes of campaign (BENCH_LIST_SHAPES=bursts,trickled, default both; one database, the shapes
 * built and measured one after the other, each in a campaign of its own):
 *  - bursts: loaded through the API in requests of 10,000 (every second of creation holds thousands
 *    of targets), then statuses and last calls set as a calling engine reaching them in creation
 *    order would leave them.
 *  - trickled: created one at a time over four months, as a campaign an EHR feeds one patient at a
 *    time (business hours heavier; at 1,000,000 targets one every ~10 s on average, so almost no
 *    two share a second of creation; fewer targets keep the four months, further apart), then
 *    called over the same months: first calls minutes to hours after creation within calling hours,
 *    some retried over the next days, some recalled weeks later; most end Finished, Failed or To
 *    review, the latest ones are still Pending or Scheduled. The calls are replayed in time order,
 *    a day of calls at a time, so no target's last call is ever later than the day being written.
 *    This shape is written in SQL on the bench's raw connection, in set-based statements
 *    (INSERT ... SELECT generate_series, then one UPDATE per day of call time) that fire the
 *    `targets` triggers as the service's own writes do, with the columns the service writes (see
 *    targets.triggers.sql.ts and the target transitions adapter). Not through the API: the API
 *    stamps a target's creation time with the service's clock, so months of creation cannot come
 *    through it, and one request per target would take hours at this scale.
 *
 *   DATABASE_URL=postgres://... BENCH_LIST_TARGETS=200000 BENCH_LIST_SHAPES=trickled npm run bench:list
 */
import { performance } from 'perf_hooks';
import { Client } from 'pg';
import { TargetRepository } from '../src/modules/target/application/ports/target.repository.js';
import {
  Api,
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

const TARGETS = Number(process.env.BENCH_LIST_TARGETS ?? 1_000_000);
const SHAPES = ['bursts', 'trickled'] as const;
type Shape = (typeof SHAPES)[number];
const CHOSEN_SHAPES = (process.env.BENCH_LIST_SHAPES ?? SHAPES.join(','))
  .split(',')
  .map((s) => s.trim())
  .filter((s) => s !== '');
const PER_REQUEST = 10_000;
const SAMPLES = Number(process.env.BENCH_SAMPLES ?? 40);
const LIMIT = 10;
/** Issue 33: every list query, p95 over HTTP, whatever the campaign's shape. */
const GOAL_MS = 50;
const STATUSES = ['Pending', 'Finished', 'Failed', 'To review'];
/** How far apart the engine reaches targets in the bursts campaign (see the calls placed below). */
const CALL_EVERY_MS = 50;
/** The trickled campaign: how long its targets were created over, and how many go in one INSERT. */
const TRICKLE_DAYS = 120;
const TRICKLE_PER_INSERT = 50_000;
/** Where the trickled campaign's patients live: its business hours and calling hours. */
const TRICKLE_ZONE = 'America/New_York';
/**
 * When every kind is measured (issue 45): right after the statement that gave the targets their
 * statuses and last calls (nothing folded, vacuumed or analyzed by hand), a minute after it, and
 * settled (folded, vacuumed and analyzed by hand).
 */
const PHASES = ['after_change', 'minute_later', 'settled'] as const;
type Phase = (typeof PHASES)[number];
const PHASE_LABELS: Record<Phase, string> = {
  after_change: 'right after the change',
  minute_later: 'a minute later',
  settled: 'settled',
};
const MINUTE_MS = 60_000;

type Query = Record<string, string>;
type Timings = ReturnType<typeof stats>;
type PageOf = (pages: number, i: number) => number;

interface ShapeContext {
  shape: Shape;
  api: Api;
  raw: Client;
  base: string;
  key: string;
  organizationId: string;
  /** One pass of the service's folding job (it also runs on its own timer). */
  foldCounts: () => Promise<unknown>;
}

interface ShapeResult {
  result: Record<string, unknown>;
  summary: SummaryRow[];
  /** Per row: name, p50, p95, ratio to the baseline, and whether p95 is under GOAL_MS. */
  table: { name: string; p50: number; p95: number; ratio: number; met: boolean }[];
  mismatches: string[];
}

async function main(): Promise<void> {
  const unknown = CHOSEN_SHAPES.filter((s) => !(SHAPES as readonly string[]).includes(s));
  if (unknown.length > 0 || CHOSEN_SHAPES.length === 0) {
    throw new Error(`BENCH_LIST_SHAPES: ${CHOSEN_SHAPES.join(',')}; expected some of ${SHAPES}`);
  }
  const loadBefore = loadAverage();
  // No rate limit: the cursor walk alone makes thousands of requests with one key.
  await withBenchService(
    { ROLE: 'api', RATE_LIMIT_REQUESTS: '0' },
    async ({ service, raw, dbName }) => {
      const { api, key, organizationId } = await benchApi(service, dbName);
      const base = baseUrl(service);
      const shapes: Record<string, ShapeResult> = {};
      for (const shape of CHOSEN_SHAPES as Shape[]) {
        const foldCounts = () => service.app.get(TargetRepository).foldCounts();
        shapes[shape] = await measureShape({
          shape,
          api,
          raw,
          base,
          key,
          organizationId,
          foldCounts,
        });
      }
      const mismatches = Object.values(shapes).flatMap((s) => s.mismatches);
      writeResult('list', {
        targets: TARGETS,
        limit: LIMIT,
        samples: SAMPLES,
        shapes: Object.fromEntries(Object.entries(shapes).map(([k, s]) => [k, s.result])),
        page_count_mismatches: mismatches,
        summary: Object.values(shapes).flatMap((s) => s.summary),
        load_average: { before: loadBefore, after: loadAverage() },
        postgres: await serverVersion(raw),
        node: process.version,
        at: new Date().toISOString(),
      });
      for (const [shape, s] of Object.entries(shapes)) printTable(shape, s);
      if (mismatches.length > 0) {
        throw new Error(`page_count differs from a raw count:\n${mismatches.join('\n')}`);
      }
    },
  );
}

async function measureShape(ctx: ShapeContext): Promise<ShapeResult> {
  const { shape, api, raw, base, key, organizationId } = ctx;
  const campaignId = await benchCampaign(api, `bench list ${shape}`);
  const path = `/api/v1/campaigns/${campaignId}`;
  const mismatches: string[] = [];

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
  /**
   * What months of a campaign's life do to its counts as it grows: the folding job folds what was
   * appended and vacuums the tables it folded (called here rather than waited for: its timer also
   * runs). The trickled build writes months in a few hundred statements, so it folds after each
   * INSERT and after each week of days of calls; without that, its tables would hold every row ever
   * appended, which a campaign folded every few dozen changes never does.
   */
  const fold = async () => {
    await ctx.foldCounts();
  };
  const buildStart = performance.now();
  if (shape === 'bursts') await loadInBursts(api, path);
  else await trickle(raw, organizationId, campaignId, fold);
  const buildSeconds = (performance.now() - buildStart) / 1000;

  /** Which measurement a page_count mismatch was found in. */
  let phaseNow = 'before the calls';
  /** The query's page_count, checked against a raw count of its rows. */
  const pageCount = async (query: Query) => {
    const pages = (await get({ ...query, limit: LIMIT })).body.page_count as number;
    const expected = Math.ceil((await rawCount(raw, organizationId, campaignId, query)) / LIMIT);
    if (pages !== expected) {
      mismatches.push(
        `${shape} (${phaseNow}) ${JSON.stringify(query)}: page_count ${pages}, raw ${expected}`,
      );
    }
    return pages;
  };
  const sample = async (query: Query, pageOf: PageOf) => {
    const pages = await pageCount(query);
    const ms: number[] = [];
    for (let i = 0; i < SAMPLES; i++) {
      ms.push((await get({ ...query, limit: LIMIT, page: pageOf(pages, i) })).ms);
    }
    return stats(ms);
  };
  const first: PageOf = (_, i) => i % 5;
  const random: PageOf = (pages) => Math.floor(Math.random() * pages);
  const last: PageOf = (pages, i) => Math.max(0, pages - 1 - (i % 5));
  /** SAMPLES pages in a row (next, next, ...) from a random page. */
  const sequential = (): PageOf => {
    let from: number | undefined;
    return (pages, i) => {
      from ??= Math.floor(Math.random() * Math.max(1, pages - SAMPLES));
      return Math.min(from + i, Math.max(0, pages - 1));
    };
  };

  /** Folded as above, and the targets' old versions vacuumed and every table analyzed. */
  const settle = async () => {
    await fold();
    await raw.query(
      'VACUUM ANALYZE targets, target_count_deltas, target_position_counts, target_last_call_counts',
    );
  };

  // Every target still Pending (a freshly loaded campaign): that status's random pages.
  await settle();
  for (let i = 0; i < 5; i++) await get({ limit: LIMIT, page: i });
  const everyTargetStatusRandomPages = await sample({ status: 'Pending' }, random);

  // Statuses and last calls as the calling engine would leave them (through the triggers, so the
  // counters follow). Nothing is folded, vacuumed or analyzed by hand after it until the settled
  // phase: the first two phases see what the service itself makes of the change (its folding job on
  // its own timer; autovacuum if the server runs it, often off on the machines this runs on).
  const callsStart = performance.now();
  if (shape === 'bursts') await callInCreationOrder(raw, campaignId);
  else await callOverMonths(raw, campaignId, fold);
  const changedAt = performance.now();
  const callsSeconds = (changedAt - callsStart) / 1000;
  const campaign = await describeCampaign(raw, campaignId);

  const lo = new Date(campaign.created_from).getTime();
  const hi = new Date(campaign.created_to).getTime();
  const amongCreated = (fraction: number) => new Date(lo + (hi - lo) * fraction).toISOString();
  // A window over the middle tenth of the campaign's creation times, and one over all but the first
  // and last twentieth (most of the campaign matches).
  const windowFrom = amongCreated(0.45);
  const windowTo = amongCreated(0.55);
  const wideFrom = amongCreated(0.05);
  const wideTo = amongCreated(0.95);
  // Last-call bounds as fractions of the calls' span: before them all (every called target
  // matches), the middle (the later half, or with `to` the earlier), the last hundredth (a poll for
  // recent calls) and a tenth in the middle.
  const firstCall = new Date(campaign.first_call).getTime();
  const lastCall = new Date(campaign.last_call).getTime();
  const amongCalls = (fraction: number) =>
    new Date(firstCall + (lastCall - firstCall) * fraction).toISOString();
  const beforeEveryCall = new Date(firstCall - 1000).toISOString();
  const lastCallMiddle = amongCalls(0.5);
  const lastCallLatest = amongCalls(0.99);
  const window = { from_date: windowFrom, to_date: windowTo };
  const wide = { from_date: wideFrom, to_date: wideTo };
  // A creation window a year wider than the campaign on each side (every target inside it), and a
  // two-sided last-call window over the middle half of the calls.
  const YEAR_MS = 365 * 86_400_000;
  const yearWide = {
    from_date: new Date(lo - YEAR_MS).toISOString(),
    to_date: new Date(hi + YEAR_MS).toISOString(),
  };
  const lastCallHalf = {
    from_last_call_date: amongCalls(0.25),
    to_last_call_date: amongCalls(0.75),
  };

  // name, label, query, pages (a new `sequential` per phase).
  const kinds = (): [string, string, Query, PageOf][] => [
    ['first_pages', 'first pages', {}, first],
    ['random_pages', 'random pages', {}, random],
    ['sequential_pages', 'sequential pages from a random one', {}, sequential()],
    ['last_pages', 'last pages', {}, last],
    ['status_first_pages', 'status, first pages', { status: 'Failed' }, first],
    ['status_random_pages', 'status, random pages', { status: 'Failed' }, random],
    ['status_last_pages', 'status, last pages', { status: 'Failed' }, last],
    [
      'pending_random_pages',
      'status Pending (after the calls), random pages',
      { status: 'Pending' },
      random,
    ],
    ['date_first_pages', 'dates, first pages', window, first],
    ['date_random_pages', 'dates, random pages', window, random],
    ['wide_date_first_pages', 'dates (nine tenths), first pages', wide, first],
    ['wide_date_random_pages', 'dates (nine tenths), random pages', wide, random],
    [
      'status_wide_date_first_pages',
      'status and dates (nine tenths), first pages',
      { status: 'Failed', ...wide },
      first,
    ],
    [
      'last_call_first_pages',
      'last call from (every call after it), first pages',
      { from_last_call_date: beforeEveryCall },
      first,
    ],
    [
      'status_last_call_first_pages',
      'status and last call from (every call after it), first pages',
      { status: 'Failed', from_last_call_date: beforeEveryCall },
      first,
    ],
    [
      'last_call_half_first_pages',
      'last call from (the later half of calls), first pages',
      { from_last_call_date: lastCallMiddle },
      first,
    ],
    [
      'last_call_half_random_pages',
      'last call from (the later half of calls), random pages',
      { from_last_call_date: lastCallMiddle },
      random,
    ],
    [
      'last_call_latest_first_pages',
      'last call from (the latest hundredth of calls), first pages',
      { from_last_call_date: lastCallLatest },
      first,
    ],
    [
      'status_last_call_half_first_pages',
      'status and last call to (the earlier half), first pages',
      { status: 'Failed', to_last_call_date: lastCallMiddle },
      first,
    ],
    [
      'last_call_window_first_pages',
      'last call window (a tenth, mid-campaign), first pages',
      { from_last_call_date: amongCalls(0.45), to_last_call_date: amongCalls(0.55) },
      first,
    ],
    [
      'last_call_window_random_pages',
      'last call window (a tenth, mid-campaign), random pages',
      { from_last_call_date: amongCalls(0.45), to_last_call_date: amongCalls(0.55) },
      random,
    ],
    [
      'date_last_call_first_pages',
      'dates (a tenth) and last call from (every call after it), first pages',
      { ...window, from_last_call_date: beforeEveryCall },
      first,
    ],
    [
      'wide_date_last_call_half_first_pages',
      'dates (nine tenths) and last call from (the later half), first pages',
      { ...wide, from_last_call_date: lastCallMiddle },
      first,
    ],
    [
      'wide_date_last_call_half_random_pages',
      'dates (nine tenths) and last call from (the later half), random pages',
      { ...wide, from_last_call_date: lastCallMiddle },
      random,
    ],
    [
      'status_wide_date_last_call_half_first_pages',
      'status, dates (nine tenths) and last call to (the earlier half), first pages',
      { status: 'Failed', ...wide, to_last_call_date: lastCallMiddle },
      first,
    ],
    [
      'date_last_call_both_first_pages',
      'dates (a tenth) and last call from and to (the middle half), first pages',
      { ...window, ...lastCallHalf },
      first,
    ],
    [
      'date_last_call_both_random_pages',
      'dates (a tenth) and last call from and to (the middle half), random pages',
      { ...window, ...lastCallHalf },
      random,
    ],
    [
      'wide_date_last_call_both_first_pages',
      'dates (nine tenths) and last call from and to (the middle half), first pages',
      { ...wide, ...lastCallHalf },
      first,
    ],
    [
      'wide_date_last_call_both_random_pages',
      'dates (nine tenths) and last call from and to (the middle half), random pages',
      { ...wide, ...lastCallHalf },
      random,
    ],
    [
      'year_date_last_call_both_first_pages',
      'dates (a year either side) and last call from and to (the middle half), first pages',
      { ...yearWide, ...lastCallHalf },
      first,
    ],
    [
      'year_date_last_call_both_random_pages',
      'dates (a year either side) and last call from and to (the middle half), random pages',
      { ...yearWide, ...lastCallHalf },
      random,
    ],
  ];
  const queries = kinds();

  /**
   * Every kind, p95 per kind, in one phase: right after the change, a minute after it (measured on
   * the clock from the change's end; a phase that ends later than that starts the next at once), and
   * settled (folded, vacuumed and analyzed by hand). page_count is checked in every phase.
   */
  const measurePhase = async (phase: Phase) => {
    phaseNow = PHASE_LABELS[phase];
    const startedSeconds = round((performance.now() - changedAt) / 1000);
    // Warm-up: a few requests so the first measured ones do not pay for connections and caches.
    for (let i = 0; i < 5; i++) await get({ limit: LIMIT, page: i });
    const ms: Record<string, Timings> = {};
    for (const [name, , query, pageOf] of kinds()) ms[name] = await sample(query, pageOf);
    return { started_seconds_after_change: startedSeconds, ms };
  };
  const phases = {} as Record<Phase, Awaited<ReturnType<typeof measurePhase>>>;
  phases.after_change = await measurePhase('after_change');
  const minute = MINUTE_MS - (performance.now() - changedAt);
  if (minute > 0) await new Promise((resolve) => setTimeout(resolve, minute));
  phases.minute_later = await measurePhase('minute_later');
  await settle();
  phases.settled = await measurePhase('settled');
  const measured = phases.settled.ms;

  // Five of the first targets called again after every other call: a poll for the latest
  // hundredth matches them too, a whole campaign away from the rest.
  await raw.query(
    `UPDATE targets SET last_call_date = $2 WHERE id IN (
       SELECT id FROM targets WHERE campaign_id = $1 ORDER BY created_at, id LIMIT 5)`,
    [campaignId, new Date(lastCall + 1000).toISOString()],
  );
  const retriedPoll = await sample({ from_last_call_date: lastCallLatest }, first);

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
  if (seen.size !== TARGETS)
    throw new Error(`${shape}: cursor walk saw ${seen.size} of ${TARGETS}`);

  // Baseline: the old list statement pair for random pages, raw on the same database.
  const baselineMs: number[] = [];
  const pages = Math.ceil(TARGETS / LIMIT);
  for (let i = 0; i < Math.min(SAMPLES, 20); i++) {
    const offset = random(pages, i) * LIMIT;
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

  const table: ShapeResult['table'] = [];
  const row = (label: string, timings: Timings): SummaryRow => {
    const ratio = round(timings.p95 / baseline.p95);
    table.push({
      name: label,
      p50: timings.p50,
      p95: timings.p95,
      ratio,
      met: timings.p95 < GOAL_MS,
    });
    return {
      path: `GET targets, ${TARGETS.toLocaleString('en')} targets (${shape}): ${label} p95`,
      ours: `${timings.p95} ms`,
      baseline: `${baseline.p95} ms (old, random page)`,
      ratio,
      goal: `< ${GOAL_MS} ms`,
      met: timings.p95 < GOAL_MS,
    };
  };
  const summary: SummaryRow[] = [];
  for (const phase of PHASES)
    for (const [name, label] of queries)
      summary.push(row(`${PHASE_LABELS[phase]}: ${label}`, phases[phase].ms[name]));
  summary.push(
    row('status every target has (before the calls), random pages', everyTargetStatusRandomPages),
    row(
      'last call from (the latest hundredth, and five early targets called again), first pages',
      retriedPoll,
    ),
    row('cursor walk, 100 a page', walk),
  );

  return {
    result: {
      build_seconds: round(buildSeconds),
      calls_seconds: round(callsSeconds),
      campaign,
      ms: {
        ...measured,
        every_target_status_random_pages: everyTargetStatusRandomPages,
        last_call_latest_retried_first_pages: retriedPoll,
      },
      phases,
      cursor_walk: { pages: walkMs.length, seconds: round(walkSeconds), ms: walk },
      baseline_random_pages_ms: baseline,
    },
    summary,
    table,
    mismatches,
  };
}

/** The bursts shape: the campaign loaded through the API in requests of PER_REQUEST targets. */
async function loadInBursts(api: Api, path: string): Promise<void> {
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
}

/**
 * The bursts shape's calls: the engine reaches the targets in creation order, one every
 * CALL_EVERY_MS from a day after the first was added (20 a second: a deployment with a few thousand
 * lines busy); a quarter are never called. Four statuses, a quarter each.
 */
async function callInCreationOrder(raw: Client, campaignId: string): Promise<void> {
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
}

/**
 * Session helpers on the raw connection for the trickled shape: a uniform draw in [0, 1) from a key
 * (the same key, the same draw: runs are alike), and a call time moved into calling hours (8:00 to
 * 20:00 in TRICKLE_ZONE; outside them, to the next morning's first hour and a half).
 */
async function defineTrickleHelpers(raw: Client): Promise<void> {
  await raw.query(
    `CREATE OR REPLACE FUNCTION pg_temp.bench_draw(key text) RETURNS float8
       LANGUAGE sql IMMUTABLE AS $$ SELECT (hashtext(key) & 2147483647)::float8 / 2147483648 $$`,
  );
  await raw.query(
    `CREATE OR REPLACE FUNCTION pg_temp.bench_calling_hours(at timestamptz, draw float8)
       RETURNS timestamptz LANGUAGE sql IMMUTABLE AS $$
       SELECT CASE
         WHEN extract(hour FROM at AT TIME ZONE '${TRICKLE_ZONE}') < 8
           THEN (date_trunc('day', at AT TIME ZONE '${TRICKLE_ZONE}') + interval '8 hours'
                 + draw * interval '90 minutes') AT TIME ZONE '${TRICKLE_ZONE}'
         WHEN extract(hour FROM at AT TIME ZONE '${TRICKLE_ZONE}') >= 20
           THEN (date_trunc('day', at AT TIME ZONE '${TRICKLE_ZONE}') + interval '1 day 8 hours'
                 + draw * interval '90 minutes') AT TIME ZONE '${TRICKLE_ZONE}'
         ELSE at END $$`,
  );
}

/** The end of the trickled campaign's months: this hour's start (nothing is created or called after). */
function trickleEnd(): Date {
  const end = new Date();
  end.setUTCMinutes(0, 0, 0);
  return end;
}

/**
 * The trickled shape: TARGETS targets created one at a time over TRICKLE_DAYS, as the service's
 * add-targets insert writes them (Pending, not launched). Creation follows a weekly rhythm in
 * TRICKLE_ZONE (weekday business hours 6, their edges 1.5, nights 0.3, weekends 0.5 per hour): the
 * targets are evenly spaced in that rhythm's cumulative weight, each jittered within its slot, and
 * mapped back to wall-clock time through the hour it falls in. Evenly spaced rather than drawn at
 * random so that two targets rarely share a second (random arrivals at the business-hours rate would
 * put a quarter of them in a shared second).
 */
async function trickle(
  raw: Client,
  organizationId: string,
  campaignId: string,
  fold: () => Promise<void>,
): Promise<void> {
  await defineTrickleHelpers(raw);
  const end = trickleEnd();
  const start = new Date(end.getTime() - TRICKLE_DAYS * 86_400_000);
  await raw.query(
    `CREATE TEMP TABLE trickle_hours AS
     SELECT hour_start, weight, sum(weight) OVER (ORDER BY hour_start) - weight AS before
       FROM (SELECT h AS hour_start,
                    CASE WHEN extract(isodow FROM h AT TIME ZONE '${TRICKLE_ZONE}') >= 6 THEN 0.5
                         WHEN extract(hour FROM h AT TIME ZONE '${TRICKLE_ZONE}') BETWEEN 8 AND 17 THEN 6
                         WHEN extract(hour FROM h AT TIME ZONE '${TRICKLE_ZONE}') IN (7, 18, 19, 20) THEN 1.5
                         ELSE 0.3 END::float8 AS weight
               FROM generate_series($1::timestamptz, $2::timestamptz - interval '1 hour',
                                    interval '1 hour') AS h) hours`,
    [start.toISOString(), end.toISOString()],
  );
  await raw.query('CREATE INDEX ON trickle_hours (before)');
  const {
    rows: [{ total }],
  } = await raw.query('SELECT sum(weight) AS total FROM trickle_hours');
  for (let from = 0; from < TARGETS; from += TRICKLE_PER_INSERT) {
    const to = Math.min(TARGETS, from + TRICKLE_PER_INSERT) - 1;
    await raw.query(
      `INSERT INTO targets (id, organization_id, campaign_id, external_id, phone_number, time_zone,
                            patient, input_data, output_data, status, attempts, created_at, updated_at)
       SELECT gen_random_uuid(), $1, $2, 'ehr-' || n, '+1556' || lpad(n::text, 7, '0'), $7,
              jsonb_build_object('first_name', 'Ada', 'last_name', 'Patient ' || n,
                                 'date_of_birth', '1980-02-03'),
              jsonb_build_object('clinic', (ARRAY['North', 'South', 'East'])[1 + n % 3], 'visit', n),
              '{}'::jsonb, 'Pending', 0, c.created_at, c.created_at
         FROM generate_series($3::int, $4::int) AS n
        CROSS JOIN LATERAL (
          SELECT (n + 0.1 + 0.8 * pg_temp.bench_draw('slot:' || n)) * $5::float8 / $6 AS at) w
        CROSS JOIN LATERAL (
          SELECT h.hour_start + (w.at - h.before) / h.weight * interval '1 hour' AS created_at
            FROM trickle_hours h WHERE h.before <= w.at ORDER BY h.before DESC LIMIT 1) c
        ORDER BY n`,
      [organizationId, campaignId, from, to, total, TARGETS, TRICKLE_ZONE],
    );
    await fold();
  }
  await raw.query('DROP TABLE trickle_hours');
}

/**
 * The trickled shape's calls, replayed in time order (through the triggers, as the engine's own
 * writes; the columns its start and finish of a call set). Per target, from draws keyed by its
 * external id: 4% are never launched (stay Pending); the rest plan one call (55%), two (25%) or three
 * (20%): the first 2 minutes to 8 hours after creation, each next one 1 to 48 hours later, all within
 * calling hours; 6% are recalled 1 to 6 weeks after their last planned call. The calls up to the
 * campaign's end were made: a target with calls left is Scheduled for the next one (or, never called
 * yet, half Pending: not launched yet); one with none left ended Finished (62%), Failed (20%) or To
 * review (18%). last_call_date is its latest call's start.
 *
 * Every target's plan is drawn once, then time moves forward a day at a time: one UPDATE per day of
 * call time writes the targets called that day as that day's calls leave them (last call, attempts so
 * far, Scheduled for the next call or ended), so no target ever has a last call later than the day
 * being written, as in a campaign where a last call is set when it is made. The lists fold after each
 * week of days, and targets is vacuumed whenever autovacuum's threshold (the table's settings) would
 * have done it. The calls are replayed after every target was created (the bench measures the
 * campaign all Pending first); a target is never called before its creation, and creation times do
 * not bear on the last-call counts. The targets scheduled at the end with no call made yet are
 * written last, in one UPDATE that sets no last call.
 */
async function callOverMonths(
  raw: Client,
  campaignId: string,
  fold: () => Promise<void>,
): Promise<void> {
  const end = trickleEnd();
  // Each launched target's plan: its calls in time order (each later than the one before: calling
  // hours only move a time later) and the draws its end depends on.
  await raw.query(
    `CREATE TEMP TABLE trickle_plans AS
     WITH drawn AS MATERIALIZED (
       SELECT id, organization_id, created_at, substr(external_id, 5)::bigint AS n,
              pg_temp.bench_draw('launch:' || external_id) < 0.04 AS never_launched,
              pg_temp.bench_draw('calls:' || external_id) AS u_calls,
              pg_temp.bench_draw('first:' || external_id) AS u_first,
              pg_temp.bench_draw('second:' || external_id) AS u_second,
              pg_temp.bench_draw('third:' || external_id) AS u_third,
              pg_temp.bench_draw('hour:' || external_id) AS u_hour,
              pg_temp.bench_draw('recall:' || external_id) AS u_recall,
              pg_temp.bench_draw('recall delay:' || external_id) AS u_recall_delay,
              pg_temp.bench_draw('wait:' || external_id) AS u_wait,
              pg_temp.bench_draw('status:' || external_id) AS u_status,
              pg_temp.bench_draw('outcome:' || external_id) AS u_outcome
         FROM targets WHERE campaign_id = $1),
     planned AS MATERIALIZED (
       SELECT d.*, (ARRAY[a1.c1, a2.c2, a3.c3])[1:1 + (d.u_calls >= 0.55)::int + (d.u_calls >= 0.8)::int]
                AS calls
         FROM drawn d
        CROSS JOIN LATERAL (SELECT pg_temp.bench_calling_hours(
          d.created_at + interval '2 minutes' + d.u_first ^ 3 * interval '8 hours', d.u_hour) AS c1) a1
        CROSS JOIN LATERAL (SELECT pg_temp.bench_calling_hours(
          a1.c1 + interval '1 hour' + d.u_second ^ 2 * interval '47 hours', d.u_hour) AS c2) a2
        CROSS JOIN LATERAL (SELECT pg_temp.bench_calling_hours(
          a2.c2 + interval '1 hour' + d.u_third ^ 2 * interval '47 hours', d.u_hour) AS c3) a3
        WHERE NOT d.never_launched)
     SELECT p.id, p.organization_id, p.n, p.u_wait, p.u_status, p.u_outcome,
            CASE WHEN p.u_recall < 0.06
              THEN p.calls || pg_temp.bench_calling_hours(p.calls[cardinality(p.calls)]
                     + interval '7 days' + p.u_recall_delay * interval '35 days', p.u_hour)
              ELSE p.calls END AS all_calls
       FROM planned p`,
    [campaignId],
  );
  await raw.query('ALTER TABLE trickle_plans ADD PRIMARY KEY (id)');
  // The calls made by the campaign's end, numbered in each target's order.
  await raw.query(
    `CREATE TEMP TABLE trickle_calls AS
     SELECT p.id, c.k::int AS k, c.at
       FROM trickle_plans p CROSS JOIN LATERAL unnest(p.all_calls) WITH ORDINALITY AS c(at, k)
      WHERE c.at <= $1`,
    [end.toISOString()],
  );
  await raw.query('CREATE INDEX ON trickle_calls (at)');
  await raw.query('ANALYZE trickle_plans, trickle_calls');
  const {
    rows: [{ first }],
  } = await raw.query(`SELECT min(created_at) AS first FROM targets WHERE campaign_id = $1`, [
    campaignId,
  ]);
  // Months of calls on a server with autovacuum (on by default) see targets vacuumed as their dead
  // rows pass its threshold: autovacuum_vacuum_threshold + autovacuum_vacuum_scale_factor × rows, the
  // table's own settings (a migration sets the scale factor) over the server's. This server may run
  // without autovacuum, so the build vacuums by that rule by hand; after the last day, nothing is.
  const {
    rows: [vacuumAfter],
  } = await raw.query<{ threshold: number }>(
    `SELECT (coalesce(o.threshold, current_setting('autovacuum_vacuum_threshold')::float8)
             + coalesce(o.scale_factor, current_setting('autovacuum_vacuum_scale_factor')::float8)
               * c.reltuples)::float8 AS threshold
       FROM pg_class c
       LEFT JOIN LATERAL (
         SELECT max(option_value::float8) FILTER (WHERE option_name = 'autovacuum_vacuum_threshold')
                  AS threshold,
                max(option_value::float8) FILTER (WHERE option_name = 'autovacuum_vacuum_scale_factor')
                  AS scale_factor
           FROM pg_options_to_table(c.reloptions)) o ON true
      WHERE c.oid = 'targets'::regclass`,
  );
  let updatedSinceVacuum = 0;
  for (let day = new Date(first).getTime(); day <= end.getTime(); day += 86_400_000) {
    if (updatedSinceVacuum > vacuumAfter.threshold) {
      await raw.query('VACUUM targets');
      updatedSinceVacuum = 0;
    }
    // The targets called this day, as their calls so far leave them: `made` is the number of their
    // latest call this day (their calls are in time order).
    const calledToday = await raw.query(
      `WITH called AS MATERIALIZED (
         SELECT id, max(k) AS made FROM trickle_calls WHERE at >= $1 AND at < $2 GROUP BY id),
       ended AS MATERIALIZED (
         SELECT p.*, c.made, CASE WHEN c.made < cardinality(p.all_calls) THEN 'Scheduled'
                                  WHEN p.u_status < 0.62 THEN 'Finished'
                                  WHEN p.u_status < 0.82 THEN 'Failed'
                                  ELSE 'To review' END AS status
           FROM called c JOIN trickle_plans p ON p.id = c.id),
       outcome AS MATERIALIZED (
         SELECT e.*, CASE WHEN e.status = 'Scheduled' THEN 'NO_RESPONSE'
                          WHEN e.status = 'Finished' THEN
                            CASE WHEN e.u_outcome < 0.7 THEN 'GOOD'
                                 WHEN e.u_outcome < 0.85 THEN 'VOICEMAIL' ELSE 'NO_RESPONSE' END
                          WHEN e.status = 'Failed' THEN 'TECHNICAL_FAILURE'
                          ELSE 'NEEDS_REVIEW' END AS category
           FROM ended e)
       UPDATE targets t
          SET status = o.status, attempts = o.made, retries = o.made - 1,
              call_log_ids = ARRAY(SELECT o.n * 8 + i FROM generate_series(1, o.made) AS i),
              last_call_date = o.all_calls[o.made],
              scheduled_time = CASE WHEN o.status = 'Scheduled' THEN o.all_calls[o.made + 1] END,
              execution_seconds = o.made * (20 + (o.u_outcome * 160)::int),
              resolution = CASE o.status WHEN 'Finished' THEN
                             CASE WHEN o.u_outcome < 0.7 THEN 'successful' ELSE 'unsuccessful' END
                           WHEN 'Failed' THEN 'unsuccessful' END,
              category = o.category, outcome = o.category,
              categorization = jsonb_build_object(
                'category', o.category, 'outcome', o.category, 'call_log_id', o.n * 8 + o.made),
              statistics = jsonb_build_object(
                'attempts', o.made, 'last_call_outcome', o.category,
                'last_call_log_id', o.n * 8 + o.made),
              updated_at = o.all_calls[o.made] + interval '3 minutes'
         FROM outcome o
        WHERE t.id = o.id AND t.organization_id = o.organization_id`,
      [new Date(day).toISOString(), new Date(day + 86_400_000).toISOString()],
    );
    updatedSinceVacuum += calledToday.rowCount ?? 0;
    // A week of calls at a time.
    if (Math.round((day - new Date(first).getTime()) / 86_400_000) % 7 === 6) await fold();
  }
  // Launched, first call still to come at the end: half Scheduled for it, half not launched yet.
  await raw.query(
    `UPDATE targets t SET status = 'Scheduled', scheduled_time = p.all_calls[1]
       FROM trickle_plans p
      WHERE t.id = p.id AND t.organization_id = p.organization_id
        AND p.all_calls[1] > $1 AND p.u_wait >= 0.5`,
    [end.toISOString()],
  );
  await raw.query('DROP TABLE trickle_plans, trickle_calls');
}

/** What the campaign looks like once called: its spans, statuses, and how many targets share a second of creation. */
async function describeCampaign(raw: Client, campaignId: string) {
  const {
    rows: [campaign],
  } = await raw.query(
    `SELECT min(created_at) AS created_from, max(created_at) AS created_to,
            min(last_call_date) AS first_call, max(last_call_date) AS last_call,
            count(*)::int AS targets, count(last_call_date)::int AS called,
            count(*) FILTER (WHERE attempts > 1)::int AS called_more_than_once,
            count(*) FILTER (WHERE last_call_date > created_at + interval '7 days')::int
              AS last_called_a_week_after_creation
       FROM targets WHERE campaign_id = $1`,
    [campaignId],
  );
  const {
    rows: [{ shared }],
  } = await raw.query(
    `SELECT coalesce(sum(n), 0)::int AS shared FROM (
       SELECT count(*) AS n FROM targets WHERE campaign_id = $1
        GROUP BY date_bin('1 second', created_at, timestamptz 'epoch') HAVING count(*) > 1) s`,
    [campaignId],
  );
  const { rows: statuses } = await raw.query(
    `SELECT status, count(*)::int AS n FROM targets WHERE campaign_id = $1 GROUP BY 1 ORDER BY 2 DESC`,
    [campaignId],
  );
  return {
    ...campaign,
    targets_sharing_a_second_of_creation: shared,
    statuses: Object.fromEntries(statuses.map((s) => [s.status, s.n])),
  };
}

/** The rows a list query matches, counted raw with the list's own bounds (inclusive to the millisecond). */
async function rawCount(
  raw: Client,
  organizationId: string,
  campaignId: string,
  query: Query,
): Promise<number> {
  const params: unknown[] = [campaignId, organizationId];
  const where = ['campaign_id = $1', 'organization_id = $2'];
  const add = (condition: string, value: string | undefined) => {
    if (value === undefined) return;
    params.push(value);
    where.push(condition.replace('?', `$${params.length}`));
  };
  add('status = ?', query.status);
  add('created_at >= ?', query.from_date);
  add(`created_at < ?::timestamptz + interval '1 millisecond'`, query.to_date);
  add('last_call_date >= ?', query.from_last_call_date);
  add(`last_call_date < ?::timestamptz + interval '1 millisecond'`, query.to_last_call_date);
  const { rows } = await raw.query(
    `SELECT count(*)::int AS n FROM targets WHERE ${where.join(' AND ')}`,
    params,
  );
  return rows[0].n;
}

function printTable(shape: string, s: ShapeResult): void {
  const result = s.result as { build_seconds: number; calls_seconds: number };
  const baseline = (s.result.baseline_random_pages_ms as Timings).p95;
  console.log(
    `\n${shape}: ${TARGETS.toLocaleString('en')} targets, built in ${result.build_seconds} s` +
      ` (calls set in ${result.calls_seconds} s); baseline (count(*) + OFFSET, random page) p95 ${baseline} ms`,
  );
  const header = ['query', 'p50 ms', 'p95 ms', 'x baseline', 'goal', 'met?'];
  const cells = s.table.map((r) => [
    r.name,
    String(r.p50),
    String(r.p95),
    `${r.ratio}x`,
    `< ${GOAL_MS} ms`,
    r.met ? 'yes' : 'NO',
  ]);
  const widths = header.map((h, i) => Math.max(h.length, ...cells.map((c) => c[i].length)));
  const line = (c: string[]) => `| ${c.map((v, i) => v.padEnd(widths[i])).join(' | ')} |`;
  console.log(line(header));
  console.log(`|${widths.map((w) => '-'.repeat(w + 2)).join('|')}|`);
  for (const c of cells) console.log(line(c));
}

runBench(main);
