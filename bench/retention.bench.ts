/**
 * The retention purge (issue 46): targets purged per second, the longest lock wait a writer sees on
 * the targets being purged, and the p95 of `GET /api/v1/targets/{id}` and of call placement while the
 * purge runs against the same reads and placements without it (at least 0.8x: the purge's paced
 * batches must not starve the API nor the dialler).
 *
 *   DATABASE_URL=postgres://postgres@127.0.0.1:5432/test npm run bench:retention [-- <targets>]
 *
 * The size is the first argument, else BENCH_TARGETS, else 100,000 ended targets, each with one call
 * log carrying a transcript, a summary and a recording (seeded by SQL: it is only data);
 * BENCH_READERS (8) concurrent readers. One process runs the API and the worker (ROLE=all) with 0 s
 * simulated calls: a placer triggers one call at a time in a second campaign and times it from the
 * request to the call log holding the provider's call id (the worker's poll interval included, the
 * same in every phase). The purge is run in process (`RetentionPurge.purgeOrganization`, what
 * `POST /compliance/retention/run` calls) so a long run meets no HTTP timeout, at the service's
 * RETENTION_PURGE_DUTY_CYCLE (set it in the environment to measure another).
 *
 * Three baselines, since a purge of 1,000,000 targets runs for most of an hour: BENCH_BASELINE_SECONDS
 * (60) of the same reads and placements before the purge and as long after it (A/B/A: an after as
 * slow as the during phase is drift, the tables grown by the audit events and call logs, not the
 * purge), and holds: every BENCH_HOLD_EVERY_SECONDS (30; 0: none) of purging the purge is held
 * BENCH_HOLD_SECONDS (10) between two batches, and the reads and placements that start a second into
 * a hold and end within it are the baseline beside the purge, on the same data and under the same
 * load from the rest of the machine; those that overlap a hold count in neither. The goal's ratio is
 * the holds' p95 over the p95 while the purge runs: on a machine shared with other work the minute
 * before and after meet other loads than the purge does (all three are reported). The purge's
 * seconds and rate leave the holds out.
 *
 * BENCH_WINDOWS (a comma list; all four by default: transcripts, recordings, input_data, messages)
 * picks the windows the policy sets. Each window is its own pass over the due targets, so the purge
 * takes about as many times longer as it has windows; `input_data` alone is the pass that writes the
 * target rows themselves (and their copies), and at 1,000,000 targets one pass is what fits a session.
 */
import { Client } from 'pg';
import { zoneWhereClockReads } from '../test/support/clock-zones.js';
import { rowLockWaits } from '../test/support/row-lock-probe.js';
import { RetentionPurge } from '../src/modules/retention/application/retention-purge.js';
import {
  type Api,
  baseUrl,
  benchApi,
  benchCampaign,
  loadAverage,
  round,
  runBench,
  serverVersion,
  sleep,
  stats,
  withBenchService,
  writeResult,
} from './support.js';

const TARGETS = Number(process.argv[2] ?? process.env.BENCH_TARGETS ?? 100_000);
const READERS = Number(process.env.BENCH_READERS ?? 8);
/** Rows per seeding statement: one transaction each, so the seed never holds a huge one. */
const SEED_CHUNK = 100_000;
/**
 * Targets waiting in the placer's campaign: more than a long purge places one at a time, so the after
 * phase places too (reads without the placer beside them are no baseline for reads with it: 7 ms
 * against 18 ms). At 1,000,000 targets paced at 0.25 the placer placed about 35,000 in 67 minutes.
 */
const PLACEMENT_TARGETS = Number(
  process.env.BENCH_PLACEMENT_TARGETS ?? Math.max(20_000, Math.ceil(TARGETS / 12)),
);
/** The retention windows the policy sets (the others are null: kept). */
const WINDOWS = (process.env.BENCH_WINDOWS ?? 'transcripts,recordings,input_data,messages').split(
  ',',
);
/** How long each baseline phase, before and after the purge, reads and places. */
const BASELINE_MS = Number(process.env.BENCH_BASELINE_SECONDS ?? 60) * 1000;
/** How often the purge is held (0: never), and for how long: the baseline beside it. */
const HOLD_EVERY_MS = Number(process.env.BENCH_HOLD_EVERY_SECONDS ?? 30) * 1000;
const HOLD_MS = Number(process.env.BENCH_HOLD_SECONDS ?? 10) * 1000;

/** A timing and when it started (performance.now()), so a long phase can be cut into quarters. */
interface Sample {
  at: number;
  ms: number;
}

/** The p95 of each quarter of a phase that began at `start`: whether the slowdown grows as it runs. */
function byQuarter(samples: Sample[], start: number): number[] {
  const end = samples.reduce((m, s) => (s.at > m ? s.at : m), start);
  const span = (end - start) / 4 || 1;
  return [0, 1, 2, 3].map(
    (q) =>
      stats(
        samples
          .filter((s) => Math.min(3, Math.floor((s.at - start) / span)) === q)
          .map((s) => s.ms),
      ).p95,
  );
}

async function readWhile(base: string, key: string, ids: string[], stop: () => boolean) {
  const latencies: Sample[] = [];
  await Promise.all(
    Array.from({ length: READERS }, async () => {
      while (!stop()) {
        const id = ids[Math.floor(Math.random() * ids.length)];
        const start = performance.now();
        const res = await fetch(`${base}/api/v1/targets/${id}`, { headers: { 'X-API-Key': key } });
        await res.arrayBuffer();
        latencies.push({ at: start, ms: performance.now() - start });
      }
    }),
  );
  return latencies;
}

/**
 * Places one call at a time in `campaignId` until `stop()`: each latency is from the trigger request
 * to the call log holding the provider's call id (the call placed). `placed` counts across phases.
 */
async function placeWhile(
  api: Api,
  raw: Client,
  campaignId: string,
  placed: { n: number },
  stop: () => boolean,
) {
  const latencies: Sample[] = [];
  while (!stop() && placed.n < PLACEMENT_TARGETS) {
    const start = performance.now();
    const { scheduled } = await api('POST', `/api/v1/campaigns/${campaignId}/calls`, { count: 1 });
    placed.n++;
    // The one target's call log, by the target's index: a count of the campaign's placed calls
    // would grow with every placement and cost the phases after the purge more than those before.
    for (;;) {
      const { rowCount } = await raw.query(
        `SELECT 1 FROM call_logs WHERE target_id = $1 AND provider_call_id IS NOT NULL`,
        [scheduled[0]],
      );
      if (rowCount) break;
      await sleep(5);
    }
    latencies.push({ at: start, ms: performance.now() - start });
  }
  return latencies;
}

/**
 * `TARGETS` ended targets of `campaignId`, one call log each, called 40 days ago: set-based SQL.
 * Shaped as a campaign fed one patient at a time: created over the 30 days before, rows written in
 * that order, numbers scattered (7,919 is prime to 10^7, so they stay distinct).
 */
async function seedEndedTargets(raw: Client, organizationId: string, campaignId: string) {
  for (let from = 0; from < TARGETS; from += SEED_CHUNK) {
    const to = Math.min(TARGETS, from + SEED_CHUNK) - 1;
    await raw.query(
      `INSERT INTO targets (id, organization_id, campaign_id, external_id, phone_number, patient,
                            input_data, status, category, resolution, last_call_date, created_at,
                            updated_at)
       SELECT gen_random_uuid(), $1, $2, 'p-' || i,
              '+1555' || lpad((i::bigint * 7919 % 10000000)::text, 7, '0'),
              jsonb_build_object('first_name', 'Ada', 'last_name', 'Patient ' || i,
                                 'date_of_birth', '1980-02-03'),
              jsonb_build_object('clinic', 'North', 'visit', i),
              'Finished', 'GOOD', 'successful', now() - interval '40 days',
              now() - interval '71 days' + i::float8 / $5 * interval '30 days',
              now() - interval '40 days'
         FROM generate_series($3::int, $4::int) i`,
      [organizationId, campaignId, from, to, TARGETS],
    );
  }
  await raw.query(
    `INSERT INTO call_logs (organization_id, campaign_id, target_id, attempt, to_number, from_number,
                            provider, outcome, transcripts, post_call_data, recording_urls,
                            started_at, ended_at, duration_seconds)
     SELECT organization_id, campaign_id, id, 1, phone_number, '+15550000000', 'simulated', 'GOOD',
            '[{"role":"user","message":"Yes, Ada Patient here."}]', '{"summary":"confirmed"}',
            ARRAY['https://recordings.invalid/x.wav'], now() - interval '40 days',
            now() - interval '40 days', 60
       FROM targets WHERE campaign_id = $1 ORDER BY created_at`,
    [campaignId],
  );
  const { rows } = await raw.query<{ id: string }>(
    'SELECT id FROM targets WHERE campaign_id = $1',
    [campaignId],
  );
  return rows.map((r) => r.id);
}

/**
 * Pending targets the simulator answers (distinct numbers on another exchange), for the placer; in a
 * zone where it is 14:00, so the default quiet hours hold none of them whenever the bench runs.
 */
async function placementCampaign(api: Api) {
  const campaignId = await benchCampaign(api, 'placement', {
    max_attempts: 1,
    max_concurrent_calls: 10,
  });
  const zone = zoneWhereClockReads(14);
  for (let from = 0; from < PLACEMENT_TARGETS; from += 5000) {
    const n = Math.min(5000, PLACEMENT_TARGETS - from);
    await api('POST', `/api/v1/campaigns/${campaignId}/targets`, {
      targets: Array.from({ length: n }, (_, i) => ({
        phone_number: `+1557${String(from + i + 1_000_000).padStart(7, '0')}`,
        time_zone: zone,
      })),
    });
  }
  return campaignId;
}

async function main(): Promise<void> {
  const loadBefore = loadAverage();
  const env = {
    ROLE: 'all',
    RATE_LIMIT_REQUESTS: '0',
    SIMULATED_CALL_SECONDS: '0',
    CALLS_PER_SECOND: '0',
    JOB_POLL_INTERVAL_SECONDS: '0.5',
  };
  await withBenchService(env, async (ctx) => {
    const { service, raw, env: serviceEnv } = ctx;
    const { organizationId, key, api } = await benchApi(service, ctx.dbName);
    const campaign = await benchCampaign(api, 'retention');
    const seedStart = performance.now();
    const ids = await seedEndedTargets(raw, organizationId, campaign);
    const seedSeconds = (performance.now() - seedStart) / 1000;
    const placing = await placementCampaign(api);
    await raw.query('VACUUM ANALYZE targets');
    await raw.query('VACUUM ANALYZE call_logs');
    // The seed's pages written out now, so the phase before the purge does not pay for them.
    await raw.query('CHECKPOINT');
    await api('PUT', '/api/v1/compliance/retention', {
      windows: Object.fromEntries(
        ['transcripts', 'recordings', 'input_data', 'messages', 'finished_targets'].map((part) => [
          part,
          WINDOWS.includes(part) ? 30 : null,
        ]),
      ),
      redact_transcripts: false,
    });
    const base = baseUrl(service);
    const placed = { n: 0 };

    /** The same reads and placements, BASELINE_MS long, without the purge. */
    const baseline = async () => {
      let stop = false;
      const timer = setTimeout(() => (stop = true), BASELINE_MS);
      const [reads, placements] = await Promise.all([
        readWhile(base, key, ids, () => stop),
        placeWhile(api, raw, placing, placed, () => stop),
      ]);
      clearTimeout(timer);
      return { reads, placements };
    };

    const before = await baseline();
    // The purge, held now and then (BENCH_HOLD_SECONDS every BENCH_HOLD_EVERY_SECONDS of purging)
    // between two batches: the reads and placements in a hold are a baseline taken beside the purge,
    // under the same data and the same load from elsewhere on the machine.
    let purging = true;
    // Write-ahead log written while the purge runs (the readers' audit events and the placer's calls
    // included): what a checkpoint and a replica have to carry.
    const walAt = async () =>
      (await raw.query<{ lsn: string }>('SELECT pg_current_wal_lsn()::text AS lsn')).rows[0].lsn;
    const walBefore = await walAt();
    const holds: { from: number; to: number }[] = [];
    const started = performance.now();
    let lastHoldEnd = started;
    const purge = service.app
      .get(RetentionPurge)
      .purgeOrganization(organizationId, {
        trigger: 'api',
        afterBatch: async () => {
          if (HOLD_EVERY_MS <= 0 || performance.now() - lastHoldEnd < HOLD_EVERY_MS) return;
          const from = performance.now();
          await sleep(HOLD_MS);
          lastHoldEnd = performance.now();
          holds.push({ from, to: lastHoldEnd });
        },
      })
      .finally(() => (purging = false));
    const [readsMeanwhile, placementsMeanwhile, waits, run] = await Promise.all([
      readWhile(base, key, ids, () => !purging),
      placeWhile(api, raw, placing, placed, () => !purging),
      rowLockWaits(serviceEnv.DATABASE_URL!, ids, () => purging),
      purge,
    ]);
    const { rows: walRows } = await raw.query<{ bytes: string }>(
      'SELECT pg_wal_lsn_diff($1::pg_lsn, $2::pg_lsn)::bigint::text AS bytes',
      [await walAt(), walBefore],
    );
    const walBytes = Number(walRows[0].bytes);
    const held = holds.reduce((sum, h) => sum + h.to - h.from, 0);
    const seconds = (performance.now() - started - held) / 1000;
    // In a hold: started a second into it (the last batch's commit behind it) and ended within it.
    const inHold = (x: Sample) => holds.some((h) => x.at >= h.from + 1000 && x.at + x.ms <= h.to);
    const overlapsHold = (x: Sample) => holds.some((h) => x.at < h.to && x.at + x.ms > h.from);
    const after = await baseline();
    const purged = Number(run.counts.input_data ?? 0);
    /**
     * One measure's phases: before, during (leaving out what overlaps a hold), after, per quarter, in
     * the holds; and the p95 ratios, the goal's against the holds.
     */
    const phases = (before: Sample[], meanwhile: Sample[], after: Sample[]) => {
      const during = meanwhile.filter((x) => !overlapsHold(x));
      const p = {
        before: stats(before.map((r) => r.ms)),
        during: stats(during.map((r) => r.ms)),
        after: stats(after.map((r) => r.ms)),
        during_by_quarter: byQuarter(during, started),
        in_holds: stats(meanwhile.filter(inHold).map((r) => r.ms)),
      };
      // An empty phase's p95 is NaN, written as null (the placer can run out before the after phase).
      const over = (baseline: number) => round(baseline / p.during.p95);
      return {
        ms: p,
        p95_ratio: {
          holds_over_during: over(p.in_holds.p95),
          before_over_during: over(p.before.p95),
          after_over_during: over(p.after.p95),
          baselines_mean_over_during: over((p.before.p95 + p.after.p95) / 2),
        },
      };
    };
    const reads = phases(before.reads, readsMeanwhile, after.reads);
    const placements = phases(before.placements, placementsMeanwhile, after.placements);
    writeResult('retention', {
      date: new Date().toISOString(),
      targets: TARGETS,
      windows: WINDOWS,
      seed_seconds: round(seedSeconds),
      purged,
      purge_seconds: round(seconds),
      holds: { n: holds.length, seconds: round(held / 1000) },
      targets_purged_per_second: round(purged / seconds),
      wal_mb_during_purge: round(walBytes / 1048576),
      wal_bytes_per_target: round(walBytes / purged),
      run_counts: run.counts,
      longest_lock_wait_ms: stats(waits).max,
      lock_waits: stats(waits),
      target_reads_ms: reads.ms,
      p95_ratio_reads: reads.p95_ratio,
      call_placement_ms: placements.ms,
      p95_ratio_placement: placements.p95_ratio,
      postgres: await serverVersion(raw),
      load_average_before: loadBefore,
      load_average_after: loadAverage(),
    });
  });
}

runBench(main);
