/**
 * Calls benchmark (a script, not a test), on PostgreSQL, in one service process (ROLE=all):
 *
 * 1. No-op jobs: BENCH_TARGETS no-op pg-boss jobs through the JobQueue adapter (the job engine the
 *    dispatcher used to run on), the reference for the machine.
 * 2. Calls: BENCH_TARGETS targets triggered with one request and placed by the dispatcher through the
 *    asynchronous simulator with 0 s calls, no placing rate limit: calls placed per second (all call
 *    logs created and accepted) and the time until every target is final (events delivered, outcomes
 *    applied).
 * 3. In flight: BENCH_IN_FLIGHT (1,000) simulated 60 s calls in a second service process: the time
 *    to place them all, the process's RSS, and the database connections it uses; then they are ended
 *    at once (their simulated ends made due) instead of waiting a minute.
 *
 *   DATABASE_URL=postgres://postgres@127.0.0.1:5432/test npm run bench:calls
 *
 * DATABASE_URL names a PostgreSQL server where the script may create (and drops afterwards) databases
 * of its own. BENCH_TARGETS (default 10000), BENCH_MAX_CONCURRENT_CALLS (default 1000) and
 * BENCH_IN_FLIGHT (default 1000) are read.
 */
import 'reflect-metadata';
import { Client } from 'pg';
import { JobQueue } from '../src/common/jobs/job-queue.js';
import { zoneWhereClockReads } from '../test/support/clock-zones.js';
import {
  Api,
  benchApi,
  round,
  runBench,
  serverVersion,
  sleep,
  waitForCount,
  withBenchService,
  writeResult,
} from './support.js';

const TARGETS = Number(process.env.BENCH_TARGETS ?? 10_000);
const MAX_CONCURRENT = Number(process.env.BENCH_MAX_CONCURRENT_CALLS ?? 1000);
const IN_FLIGHT = Number(process.env.BENCH_IN_FLIGHT ?? 1000);
const NOOP_QUEUE = 'bench.noop';
const FINAL = `('Finished', 'Failed', 'To review')`;

/**
 * A distinct number the simulator answers as a good call: the simulator's special endings (0000 to
 * 0005) move to another exchange (+1556), so no two targets share a number (the caps count per number).
 */
const benchNumber = (n: number) => {
  const digits = String(n).padStart(7, '0');
  return /000[0-5]$/.test(digits)
    ? `+1556${digits.slice(0, -4)}1${digits.slice(-3)}`
    : `+1555${digits}`;
};

/**
 * A campaign with `count` targets whose numbers the simulator answers as good calls; `first` picks
 * the numbers (the same `first` dials the same numbers again), `timeZone` is given to each target.
 */
async function campaignWithTargets(
  api: Api,
  count: number,
  maxConcurrent: number,
  first = 2_000_000,
  timeZone: string | null = null,
) {
  const campaign = await api('POST', '/api/v1/campaigns', {
    name: 'bench calls',
    type: 'patient',
    max_attempts: 1,
    max_concurrent_calls: maxConcurrent,
  });
  for (let offset = 0; offset < count; offset += 5000) {
    const n = Math.min(5000, count - offset);
    await api('POST', `/api/v1/campaigns/${campaign.id}/targets`, {
      targets: Array.from({ length: n }, (_, i) => ({
        phone_number: benchNumber(first + offset + i),
        input_data: { i: offset + i },
        ...(timeZone ? { time_zone: timeZone } : {}),
      })),
    });
  }
  return campaign.id as string;
}

async function trigger(api: Api, campaignId: string, count: number): Promise<number> {
  const started = Date.now();
  const triggered = await api('POST', `/api/v1/campaigns/${campaignId}/calls`, { count });
  if (triggered.scheduled.length !== count)
    throw new Error(`scheduled ${triggered.scheduled.length}`);
  return Date.now() - started;
}

const placedCount = (campaignId: string) =>
  `SELECT count(*)::int AS n FROM call_logs WHERE campaign_id = '${campaignId}' AND provider_call_id IS NOT NULL`;

async function connectionsOf(raw: Client, dbName: string): Promise<number> {
  const { rows } = await raw.query(
    `SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = $1 AND pid <> pg_backend_pid()`,
    [dbName],
  );
  return rows[0].n;
}

async function main(): Promise<void> {
  const env = {
    ROLE: 'all',
    // Parts 1 to 3 measure placing, not the rules: under the standard policy a run at night in the
    // numbers' zone would wait for morning. Part 4 sets each policy it measures itself.
    DEFAULT_CALLING_POLICY: 'unrestricted',
    SIMULATED_CALL_SECONDS: '0',
    CALLS_PER_SECOND: '0',
    JOB_POLL_INTERVAL_SECONDS: process.env.JOB_POLL_INTERVAL_SECONDS ?? '0.5',
  };
  const result: Record<string, unknown> = {
    date: new Date().toISOString(),
    targets: TARGETS,
    max_concurrent_calls: MAX_CONCURRENT,
    node: process.version,
  };
  await withBenchService(env, async ({ service, raw, dbName }) => {
    const { api } = await benchApi(service, dbName);
    result.postgres = await serverVersion(raw);
    result.placement_concurrency = service.config.get('CALL_PLACEMENT_CONCURRENCY');

    // 1. The job engine alone.
    const jobs = service.app.get(JobQueue);
    const concurrency = service.config.get('WORKER_CONCURRENCY');
    let done = 0;
    await jobs.work(
      NOOP_QUEUE,
      async () => {
        done++;
      },
      { concurrency },
    );
    await jobs.enqueue(
      null,
      Array.from({ length: TARGETS }, (_, i) => ({ queue: NOOP_QUEUE, data: { i } })),
    );
    const noopStart = Date.now();
    while (done < TARGETS) await sleep(20);
    const noopSeconds = (Date.now() - noopStart) / 1000;
    result.noop_jobs_per_second = round(TARGETS / noopSeconds);
    result.noop_worker_concurrency = concurrency;

    // 2. Calls, 0 s each.
    const campaignId = await campaignWithTargets(api, TARGETS, MAX_CONCURRENT);
    const start = Date.now();
    result.trigger_request_ms = await trigger(api, campaignId, TARGETS);
    await waitForCount(raw, placedCount(campaignId), [], TARGETS, 50);
    const placedSeconds = (Date.now() - start) / 1000;
    await waitForCount(
      raw,
      `SELECT count(*)::int AS n FROM targets WHERE campaign_id = $1 AND status IN ${FINAL}`,
      [campaignId],
      TARGETS,
      50,
    );
    const finalSeconds = (Date.now() - start) / 1000;
    result.calls_placed_seconds = round(placedSeconds);
    result.calls_placed_per_second = round(TARGETS / placedSeconds);
    result.calls_seconds_until_all_final = round(finalSeconds);
    result.calls_final_per_second = round(TARGETS / finalSeconds);
    result.ratio_calls_placed_to_noop_jobs = round(
      TARGETS / placedSeconds / (TARGETS / noopSeconds),
    );
  });

  // 4. Calling rules: the same calls with the organization's policy off (the baseline), with the
  //    default policy plus caps (every call is checked: quiet hours in the target's zone, the ledger
  //    read under the numbers' locks, the call recorded), and again to the numbers just called (each
  //    number's history is read). A fresh process, so the three run on the same warm state.
  await withBenchService(env, async ({ service, raw, dbName }) => {
    const { api } = await benchApi(service, dbName);
    const policy = {
      quiet_hours: { start: '08:00', end: '21:00' },
      state_rules: true,
      max_calls_per_number: { per_24h: 3, per_7d: 10 },
      restricted_dates: [],
      default_time_zone: 'America/New_York',
    };
    const zone = zoneWhereClockReads(14);
    const placedPerSecond = async (first: number) => {
      const campaignId = await campaignWithTargets(api, TARGETS, MAX_CONCURRENT, first, zone);
      const start = Date.now();
      await trigger(api, campaignId, TARGETS);
      await waitForCount(raw, placedCount(campaignId), [], TARGETS, 50);
      return TARGETS / ((Date.now() - start) / 1000);
    };
    const rulesOff = {
      ...policy,
      quiet_hours: null,
      state_rules: false,
      max_calls_per_number: { per_24h: null, per_7d: null },
    };
    // Off, on, on again, off: each run finds the tables a run bigger, so the baseline is the mean of
    // the runs before and after the rules' first run.
    await api('PUT', '/api/v1/compliance/policy', rulesOff);
    const offBefore = await placedPerSecond(3_000_000);
    await api('PUT', '/api/v1/compliance/policy', policy);
    const on = await placedPerSecond(4_000_000);
    const again = await placedPerSecond(4_000_000);
    await api('PUT', '/api/v1/compliance/policy', rulesOff);
    const offAfter = await placedPerSecond(5_000_000);
    const off = (offBefore + offAfter) / 2;
    result.rules_off_calls_placed_per_second = round(off);
    result.rules_off_runs_per_second = [round(offBefore), round(offAfter)];
    result.rules_on_calls_placed_per_second = round(on);
    result.rules_on_numbers_called_before_per_second = round(again);
    result.ratio_rules_on_to_off = round(on / off);
    result.ratio_rules_on_called_before_to_first = round(again / on);
  });

  // 3. 1,000 calls of 60 s in flight, in a fresh process.
  await withBenchService(
    { ...env, SIMULATED_CALL_SECONDS: '60' },
    async ({ service, raw, dbName }) => {
      const { api } = await benchApi(service, dbName);
      const campaignId = await campaignWithTargets(api, IN_FLIGHT, IN_FLIGHT);
      const rssBefore = process.memoryUsage().rss;
      const start = Date.now();
      await trigger(api, campaignId, IN_FLIGHT);
      await waitForCount(raw, placedCount(campaignId), [], IN_FLIGHT, 20);
      result.in_flight_calls = IN_FLIGHT;
      result.in_flight_placement_seconds = round((Date.now() - start) / 1000);
      // Settle, then look: nothing per call should stay in the process.
      await sleep(2000);
      const { rows } = await raw.query(
        `SELECT count(*)::int AS n FROM targets WHERE campaign_id = $1 AND status = 'In Progress'`,
        [campaignId],
      );
      result.in_flight_in_progress = rows[0].n;
      result.in_flight_rss_mb = round(process.memoryUsage().rss / 2 ** 20);
      result.in_flight_rss_growth_mb = round((process.memoryUsage().rss - rssBefore) / 2 ** 20);
      result.in_flight_db_connections = await connectionsOf(raw, dbName);
      result.db_pool_size = service.config.get('DB_POOL_SIZE');
      await raw.query(`UPDATE simulated_calls SET due_at = now()`);
      const endStart = Date.now();
      await waitForCount(
        raw,
        `SELECT count(*)::int AS n FROM targets WHERE campaign_id = $1 AND status IN ${FINAL}`,
        [campaignId],
        IN_FLIGHT,
        50,
      );
      result.in_flight_end_seconds = round((Date.now() - endStart) / 1000);
    },
  );
  writeResult('calls', result);
}

runBench(main);
