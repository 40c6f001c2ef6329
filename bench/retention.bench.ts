/**
 * The retention purge (issue 46): targets purged per second, the longest lock wait a writer sees on
 * the targets being purged, and the p95 of `GET /api/v1/targets/{id}` while the purge runs against
 * the same reads without it (at least 0.8x: the purge's short batches must not starve the API).
 *
 *   DATABASE_URL=postgres://postgres@127.0.0.1:5432/test npm run bench:retention
 *
 * BENCH_TARGETS (default 100000) ended targets, each with one call log carrying a transcript, a
 * summary and a recording; BENCH_READERS (8) concurrent readers. Call placement during the purge is
 * not measured here (bench:calls measures placement alone).
 */
import { Client } from 'pg';
import {
  baseUrl,
  benchApi,
  benchCampaign,
  loadAverage,
  round,
  runBench,
  serverVersion,
  stats,
  targetItems,
  withBenchService,
  writeResult,
} from './support.js';

const TARGETS = Number(process.env.BENCH_TARGETS ?? 100_000);
const READERS = Number(process.env.BENCH_READERS ?? 8);
const CHUNK = 5_000;

/** Reads random targets from `READERS` loops until `stop()` says so; the latencies in ms. */
async function readWhile(base: string, key: string, ids: string[], stop: () => boolean) {
  const latencies: number[] = [];
  await Promise.all(
    Array.from({ length: READERS }, async () => {
      while (!stop()) {
        const id = ids[Math.floor(Math.random() * ids.length)];
        const start = performance.now();
        const res = await fetch(`${base}/api/v1/targets/${id}`, { headers: { 'X-API-Key': key } });
        await res.arrayBuffer();
        latencies.push(performance.now() - start);
      }
    }),
  );
  return latencies;
}

/** Takes a row lock on random targets, one short transaction each: the longest wait is the purge's. */
async function lockProbe(url: string, ids: string[], stop: () => boolean) {
  const client = new Client({ connectionString: url });
  await client.connect();
  const waits: number[] = [];
  try {
    while (!stop()) {
      const id = ids[Math.floor(Math.random() * ids.length)];
      const start = performance.now();
      await client.query('BEGIN');
      await client.query('SELECT 1 FROM targets WHERE id = $1 FOR UPDATE', [id]);
      waits.push(performance.now() - start);
      await client.query('COMMIT');
    }
  } finally {
    await client.end();
  }
  return waits;
}

async function main(): Promise<void> {
  const loadBefore = loadAverage();
  await withBenchService({ ROLE: 'api', RATE_LIMIT_REQUESTS: '0' }, async (ctx) => {
    const { service, raw, dbName, env } = ctx;
    const { organizationId, key, api } = await benchApi(service, dbName);
    const campaign = await benchCampaign(api, 'retention');
    const ids: string[] = [];
    for (let from = 0; from < TARGETS; from += CHUNK) {
      const added = await api('POST', `/api/v1/campaigns/${campaign}/targets`, {
        targets: targetItems(from, Math.min(CHUNK, TARGETS - from)),
      });
      ids.push(...(added.target_ids as string[]));
    }
    // Ended, each with one call: what a campaign leaves behind (seeded directly, it is only data).
    await raw.query(
      `UPDATE targets SET status = 'Finished', category = 'GOOD', resolution = 'successful',
              last_call_date = now() - interval '40 days' WHERE organization_id = $1`,
      [organizationId],
    );
    await raw.query(
      `INSERT INTO call_logs (organization_id, campaign_id, target_id, attempt, to_number, from_number,
                              provider, outcome, transcripts, post_call_data, recording_urls,
                              started_at, ended_at, duration_seconds)
       SELECT organization_id, campaign_id, id, 1, phone_number, '+15550000000', 'simulated', 'GOOD',
              '[{"role":"user","message":"Yes, Ada Patient here."}]', '{"summary":"confirmed"}',
              ARRAY['https://recordings.invalid/x.wav'], now() - interval '40 days',
              now() - interval '40 days', 60
         FROM targets WHERE organization_id = $1`,
      [organizationId],
    );
    await raw.query('VACUUM ANALYZE targets');
    await raw.query('VACUUM ANALYZE call_logs');
    await api('PUT', '/api/v1/compliance/retention', {
      windows: {
        transcripts: 30,
        recordings: 30,
        input_data: 30,
        messages: 30,
        finished_targets: null,
      },
      redact_transcripts: false,
    });
    const base = baseUrl(service);

    // Baseline: the same reads for as long as the purge will roughly take (at least 10 s).
    let stopBaseline = false;
    const baselineTimer = setTimeout(() => (stopBaseline = true), 10_000);
    const baseline = await readWhile(base, key, ids, () => stopBaseline);
    clearTimeout(baselineTimer);

    let purging = true;
    const started = performance.now();
    const purge = api('POST', '/api/v1/compliance/retention/run', {}).finally(
      () => (purging = false),
    );
    const [during, waits, run] = await Promise.all([
      readWhile(base, key, ids, () => !purging),
      lockProbe(env.DATABASE_URL!, ids, () => !purging),
      purge,
    ]);
    const seconds = (performance.now() - started) / 1000;
    const purged = Number(run.counts.input_data ?? 0);
    const reads = { without: stats(baseline), during: stats(during) };
    writeResult('retention', {
      targets: TARGETS,
      purged,
      purge_seconds: round(seconds),
      targets_purged_per_second: round(purged / seconds),
      longest_lock_wait_ms: stats(waits).max,
      lock_waits: stats(waits),
      target_reads_ms: reads,
      p95_ratio_without_over_during: round(reads.without.p95 / reads.during.p95),
      postgres: await serverVersion(raw),
      load_average_before: loadBefore,
      load_average_after: loadAverage(),
    });
  });
}

runBench(main);
