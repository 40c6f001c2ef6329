import { readFileSync } from 'fs';
import { createTestApp, TestApp, waitFor } from '../support/test-app.js';
import { startWorkerProcess, WorkerProcess } from '../support/worker-process.js';

const FINAL = ['Finished', 'Failed', 'To review'];

async function campaignWithTargets(t: TestApp, campaign: Record<string, unknown>, count: number) {
  const { apiKey } = await t.createOrganization();
  const c = await t.createCampaign(apiKey, campaign);
  const res = await t
    .http()
    .post(`/api/v1/campaigns/${c.id}/targets`)
    .set('X-API-Key', apiKey)
    .send({
      // Last four digits 1000..: good calls in the simulator.
      targets: Array.from({ length: count }, (_, i) => ({
        phone_number: `+1555${String(1_001_000 + i)}`,
      })),
    });
  expect(res.status).toBe(200);
  return { apiKey, campaignId: c.id as string, ids: res.body.target_ids as string[] };
}

const statusCounts = (t: TestApp, campaignId: string) =>
  t.sql<{ status: string; n: number }>(
    `SELECT status, count(*)::int AS n FROM targets WHERE campaign_id = $1 GROUP BY status`,
    [campaignId],
  );
const allFinal = (rows: { status: string }[]) => rows.every((r) => FINAL.includes(r.status));

/** The dispatcher on the targets table: backlogs, the placing rate, simulated events. */
describe('calling lifecycle (simulator)', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await createTestApp({ env: { CALLS_PER_SECOND: '20' } });
  });
  afterAll(() => t?.close());

  it('a backlog older than any grace period drains at once, every call through the event path', async () => {
    const { campaignId, ids } = await campaignWithTargets(
      t,
      { max_attempts: 1, max_concurrent_calls: 100 },
      20,
    );
    // Due two days ago (as after an outage): no grace period, no rescue, just due.
    await t.sql(
      `UPDATE targets SET status = 'Scheduled', scheduled_time = now() - interval '2 days'
        WHERE campaign_id = $1`,
      [campaignId],
    );
    await waitFor(() => statusCounts(t, campaignId), allFinal, 15_000);
    expect(await statusCounts(t, campaignId)).toEqual([{ status: 'Finished', n: 20 }]);
    const events = await t.sql<{ kind: string; n: number }>(
      `SELECT e.kind, count(*)::int AS n FROM call_events e JOIN call_logs l ON l.id = e.call_log_id
        WHERE l.campaign_id = $1 AND e.connection = 'simulated' GROUP BY e.kind ORDER BY e.kind`,
      [campaignId],
    );
    expect(events).toEqual([
      { kind: 'ended', n: ids.length },
      { kind: 'started', n: ids.length },
    ]);
    // The simulator forgets a call once its end was delivered, just after the delivery that
    // finished the target: wait for that, then nothing is left.
    await waitFor(
      () => t.sql<{ n: number }>(`SELECT count(*)::int AS n FROM simulated_calls`),
      (rows) => rows[0].n === 0,
      15_000,
    );
    expect(await t.sql(`SELECT * FROM simulated_calls`)).toEqual([]);
  });

  it('CALLS_PER_SECOND holds: no second places more calls than the limit', async () => {
    const { apiKey, campaignId } = await campaignWithTargets(
      t,
      { max_attempts: 1, max_concurrent_calls: 1000 },
      50,
    );
    await t
      .http()
      .post(`/api/v1/campaigns/${campaignId}/calls`)
      .set('X-API-Key', apiKey)
      .send({ count: 50 });
    await waitFor(() => statusCounts(t, campaignId), allFinal, 30_000);
    const perSecond = await t.sql<{ n: number }>(
      `SELECT count(*)::int AS n FROM call_logs WHERE campaign_id = $1
        GROUP BY date_trunc('second', started_at)`,
      [campaignId],
    );
    expect(perSecond.reduce((sum, r) => sum + r.n, 0)).toBe(50);
    expect(Math.max(...perSecond.map((r) => r.n))).toBeLessThanOrEqual(20);
  });
});

/** Issue 8: one worker process keeps 1,000 calls in flight, holding nothing per call. */
describe('1,000 calls in flight on one worker', () => {
  let t: TestApp;
  let worker: WorkerProcess;

  beforeAll(async () => {
    t = await createTestApp({ env: { ROLE: 'api' } });
    worker = startWorkerProcess(t, { SIMULATED_CALL_SECONDS: '60' });
    await worker.ready;
  });
  afterAll(async () => {
    await worker?.kill();
    await t?.close();
  });

  it('places them all (In Progress, provider ids), with bounded memory, then ends them', async () => {
    const { apiKey, campaignId } = await campaignWithTargets(
      t,
      { max_attempts: 1, max_concurrent_calls: 1000 },
      1000,
    );
    const started = Date.now();
    await t
      .http()
      .post(`/api/v1/campaigns/${campaignId}/calls`)
      .set('X-API-Key', apiKey)
      .send({ count: 1000 });
    await waitFor(
      () =>
        t.sql<{ n: number }>(
          `SELECT count(*)::int AS n FROM call_logs WHERE campaign_id = $1 AND provider_call_id IS NOT NULL
             AND ended_at IS NULL`,
          [campaignId],
        ),
      (rows) => rows[0].n === 1000,
      120_000,
      250,
    );
    const placedInMs = Date.now() - started;
    expect(await statusCounts(t, campaignId)).toEqual([{ status: 'In Progress', n: 1000 }]);
    const rssMb = rssOf(worker.child.pid!) / 1024;
    // Printed for whoever compares it with `bench:calls`; the bound is generous (no per-call state in the process).
    process.stdout.write(`1,000 in flight: placed in ${placedInMs} ms, worker RSS ${rssMb} MB\n`);
    expect(rssMb).toBeLessThan(600);

    // End them now instead of after 60 s: the simulator's pending ends become due.
    await t.sql(`UPDATE simulated_calls SET due_at = now()`);
    await waitFor(() => statusCounts(t, campaignId), allFinal, 120_000, 250);
    expect(await statusCounts(t, campaignId)).toEqual([{ status: 'Finished', n: 1000 }]);
  });
});

/** Resident set size of a process in kB (Linux). */
function rssOf(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  return Number(/VmRSS:\s+(\d+)/.exec(status)![1]);
}
