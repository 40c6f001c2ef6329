/**
 * Webhooks benchmark (a script, not a test): 10,000 `target.call_finished` events written through the
 * outbox and delivered, signed, to a local receiver that answers 200 at once, against the raw
 * throughput of no-op jobs through the same job queue (pg-boss, same concurrency) in the same run.
 *
 *   DATABASE_URL=postgres://postgres@127.0.0.1:5432/test npm run bench:webhooks
 *
 * DATABASE_URL names a PostgreSQL server where the script may create (and drops afterwards) a database
 * of its own. BENCH_EVENTS (default 10000), BENCH_EVENTS_PER_TX (default 500) and WORKER_CONCURRENCY
 * (default the service's) are read.
 */
import 'reflect-metadata';
import { randomUUID } from 'crypto';
import { Outbox } from '../src/modules/webhook/application/ports/outbox.js';
import { JobQueue } from '../src/common/jobs/job-queue.js';
import { UnitOfWork } from '../src/common/persistence/unit-of-work.js';
import { CampaignService } from '../src/modules/campaign/application/campaign.service.js';
import { OrganizationService } from '../src/modules/organization/application/organization.service.js';
import { WebhookReceiver } from '../test/support/webhook-receiver.js';
import {
  baseUrl,
  round,
  runBench,
  serverVersion,
  sleep,
  waitForCount,
  withBenchService,
  writeResult,
} from './support.js';

const EVENTS = Number(process.env.BENCH_EVENTS ?? 10_000);
const PER_TX = Number(process.env.BENCH_EVENTS_PER_TX ?? 500);
const NOOP_QUEUE = 'bench.webhooks.noop';

async function main(): Promise<void> {
  const env = {
    ROLE: 'all',
    WEBHOOK_ALLOW_PRIVATE: 'true',
    JOB_POLL_INTERVAL_SECONDS: process.env.JOB_POLL_INTERVAL_SECONDS ?? '0.5',
  };
  const receiver = await WebhookReceiver.start(() => ({ status: 200 }), { keep: false });
  try {
    await withBenchService(env, async ({ service, raw, dbName }) => {
      const concurrency = service.config.get('WORKER_CONCURRENCY');

      // 1. The job engine alone: the same number of no-op jobs, same queue adapter and concurrency.
      //    Run again at the end: on a shared machine the two runs show how much the rate drifted.
      const jobs = service.app.get(JobQueue);
      let done = 0;
      await jobs.work(NOOP_QUEUE, async () => void done++, { concurrency });
      const noopRun = async (): Promise<number> => {
        done = 0;
        const started = Date.now();
        await jobs.enqueue(
          null,
          Array.from({ length: EVENTS }, (_, i) => ({ queue: NOOP_QUEUE, data: { i } })),
        );
        while (done < EVENTS) await sleep(20);
        return (Date.now() - started) / 1000;
      };
      const noopSeconds = await noopRun();

      // 2. Webhooks: events written through the outbox (as the calling engine does, in transactions),
      //    each delivered as its own durable job: claim, sign, POST, record the attempt.
      const organizations = service.app.get(OrganizationService);
      const organization = await organizations.createOrganization(`bench-${dbName}`);
      const campaign = await service.app.get(CampaignService).create(organization.id, {
        name: 'bench webhooks',
        type: 'patient',
        webhookUrl: receiver.url,
      });
      const outbox = service.app.get(Outbox);
      const uow = service.app.get(UnitOfWork);
      const start = Date.now();
      for (let offset = 0; offset < EVENTS; offset += PER_TX) {
        const n = Math.min(PER_TX, EVENTS - offset);
        await uow.run(async (tx) => {
          for (let i = 0; i < n; i++) {
            await outbox.record(tx, [
              {
                kind: 'call_finished',
                event: {
                  organizationId: organization.id,
                  campaignId: campaign.id,
                  targetId: randomUUID(),
                  callLogId: offset + i + 1,
                  attempt: 1,
                  maxAttempts: 3,
                  nextAttemptScheduled: null,
                  status: 'Finished',
                  resolution: 'successful',
                  category: 'GOOD',
                  subcategory: null,
                },
              },
            ]);
          }
        });
      }
      const recordSeconds = (Date.now() - start) / 1000;
      const countDelivered = `SELECT count(*)::int AS n FROM webhook_deliveries WHERE campaign_id = $1 AND status = 'delivered'`;
      await waitForCount(raw, countDelivered, [campaign.id], EVENTS, 100);
      const deliverySeconds = (Date.now() - start) / 1000;
      const { rows: latency } = await raw.query(
        `SELECT percentile_cont(ARRAY[0.5, 0.95, 0.99]) WITHIN GROUP
                (ORDER BY extract(epoch FROM delivered_at - event_created_at) * 1000) AS ms,
              sum(attempts)::int AS attempts
       FROM webhook_deliveries WHERE campaign_id = $1`,
        [campaign.id],
      );

      // 3. Delivery alone: the same 10,000 deliveries marked failed behind the service's back, then one
      //    rerun request re-queues them all (one UPDATE, one batch of jobs), like the no-op jobs above.
      await raw.query(
        `UPDATE webhook_deliveries SET status = 'failed', delivered_at = NULL WHERE campaign_id = $1`,
        [campaign.id],
      );
      const apiKey = (await organizations.createApiKey(organization.id, 'bench')).key;
      const base = baseUrl(service);
      const rerunStart = Date.now();
      const rerun = await fetch(`${base}/api/v1/campaigns/${campaign.id}/webhooks/rerun-failed`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', 'X-API-Key': apiKey },
        body: JSON.stringify({ from_date: '2000-01-01', to_date: '2100-01-01' }),
      });
      const rerunBody = (await rerun.json()) as { requeued?: number };
      const rerunRequestMs = Date.now() - rerunStart;
      if (rerunBody.requeued !== EVENTS)
        throw new Error(`rerun: ${rerun.status} ${JSON.stringify(rerunBody)}`);
      await waitForCount(raw, countDelivered, [campaign.id], EVENTS, 50);
      const rerunSeconds = (Date.now() - rerunStart) / 1000;

      const noopSecondsAfter = await noopRun();

      const result = {
        date: new Date().toISOString(),
        events: EVENTS,
        events_per_transaction: PER_TX,
        worker_concurrency: concurrency,
        job_poll_interval_seconds: Number(env.JOB_POLL_INTERVAL_SECONDS),
        postgres: await serverVersion(raw),
        node: process.version,
        outbox_record_seconds: round(recordSeconds),
        deliveries_seconds_until_all_delivered: round(deliverySeconds),
        deliveries_per_second: round(EVENTS / deliverySeconds),
        requests_received: receiver.count, // both passes
        attempts_recorded_first_pass: latency[0].attempts,
        event_to_delivery_ms_p50_p95_p99: (latency[0].ms as number[]).map((v) => Math.round(v)),
        rerun_request_ms: rerunRequestMs,
        rerun_seconds_until_all_delivered: round(rerunSeconds),
        rerun_deliveries_per_second: round(EVENTS / rerunSeconds),
        ratio_rerun_deliveries_to_noop_jobs: round(EVENTS / rerunSeconds / (EVENTS / noopSeconds)),
        noop_jobs_seconds: round(noopSeconds),
        noop_jobs_per_second: round(EVENTS / noopSeconds),
        noop_jobs_per_second_after: round(EVENTS / noopSecondsAfter),
        ratio_deliveries_to_noop_jobs: round(EVENTS / deliverySeconds / (EVENTS / noopSeconds)),
      };
      writeResult('webhooks', result);
    });
  } finally {
    await receiver.close();
  }
}

runBench(main);
