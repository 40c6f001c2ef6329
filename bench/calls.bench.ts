/**
 * Calls benchmark (a script, not a test): 10,000 targets triggered with one request and dialled by
 * the simulator (SIMULATED_CALL_SECONDS=0) until every one is final, against the raw throughput of
 * no-op jobs through the same job queue (pg-boss, same concurrency) in the same run and process.
 *
 *   DATABASE_URL=postgres://postgres@127.0.0.1:5432/test npm run bench:calls
 *
 * DATABASE_URL names a PostgreSQL server where the script may create (and drops afterwards) a database
 * of its own. BENCH_TARGETS (default 10000), BENCH_MAX_CONCURRENT_CALLS (the campaign's cap, default 1000)
 * and WORKER_CONCURRENCY (default the service's) are read.
 */
import 'reflect-metadata';
import { JobQueue } from '../src/common/jobs/job-queue';
import {
  benchApi,
  round,
  runBench,
  serverVersion,
  sleep,
  waitForCount,
  withBenchService,
  writeResult,
} from './support';

const TARGETS = Number(process.env.BENCH_TARGETS ?? 10_000);
const MAX_CONCURRENT = Number(process.env.BENCH_MAX_CONCURRENT_CALLS ?? 1000);
const NOOP_QUEUE = 'bench.noop';

async function main(): Promise<void> {
  const env = {
    ROLE: 'all',
    SIMULATED_CALL_SECONDS: '0',
    JOB_POLL_INTERVAL_SECONDS: process.env.JOB_POLL_INTERVAL_SECONDS ?? '0.5',
  };
  await withBenchService(env, async ({ service, raw, dbName }) => {
    const concurrency = service.config.get('WORKER_CONCURRENCY');
    const { api } = await benchApi(service, dbName);

    // 1. The job engine alone: the same number of no-op jobs, same queue adapter and concurrency.
    const jobs = service.app.get(JobQueue);
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

    // 2. Calls: add the targets (good numbers), trigger them all at once, wait until all are final.
    const campaign = await api('POST', '/api/v1/campaigns', {
      name: 'bench calls',
      type: 'patient',
      max_attempts: 1,
      max_concurrent_calls: MAX_CONCURRENT,
    });
    for (let offset = 0; offset < TARGETS; offset += 5000) {
      const n = Math.min(5000, TARGETS - offset);
      await api('POST', `/api/v1/campaigns/${campaign.id}/targets`, {
        targets: Array.from({ length: n }, (_, i) => ({
          phone_number: `+1555${String(2000000 + offset + i)
            .padStart(7, '0')
            .replace(/000[0-4]$/, '1000')}`,
          input_data: { i: offset + i },
        })),
      });
    }
    const triggerStart = Date.now();
    const triggered = await api('POST', `/api/v1/campaigns/${campaign.id}/calls`, {
      count: TARGETS,
    });
    const triggerMs = Date.now() - triggerStart;
    if (triggered.scheduled.length !== TARGETS)
      throw new Error(`scheduled ${triggered.scheduled.length}`);
    await waitForCount(
      raw,
      `SELECT count(*)::int AS n FROM targets WHERE campaign_id = $1 AND status IN ('Finished', 'Failed', 'To review')`,
      [campaign.id],
      TARGETS,
      100,
    );
    const callSeconds = (Date.now() - triggerStart) / 1000;
    const { rows: logs } = await raw.query(
      `SELECT count(*)::int AS n FROM call_logs WHERE campaign_id = $1`,
      [campaign.id],
    );

    const result = {
      date: new Date().toISOString(),
      targets: TARGETS,
      worker_concurrency: concurrency,
      max_concurrent_calls: MAX_CONCURRENT,
      job_poll_interval_seconds: Number(env.JOB_POLL_INTERVAL_SECONDS),
      postgres: await serverVersion(raw),
      node: process.version,
      trigger_request_ms: triggerMs,
      calls_seconds_until_all_final: round(callSeconds),
      calls_per_second: round(TARGETS / callSeconds),
      call_logs: logs[0].n,
      noop_jobs_seconds: round(noopSeconds),
      noop_jobs_per_second: round(TARGETS / noopSeconds),
      ratio_calls_to_noop_jobs: round(TARGETS / callSeconds / (TARGETS / noopSeconds)),
    };
    writeResult('calls', result);
  });
}

runBench(main);
