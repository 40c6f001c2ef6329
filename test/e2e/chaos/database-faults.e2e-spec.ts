import { isDatabaseUnavailable } from '../../../src/database/connection-errors.js';
import { createTestApp, TestApp, waitFor } from '../../support/test-app.js';
import { withClient } from '../../support/test-database.js';
import { WebhookReceiver } from '../../support/webhook-receiver.js';
import { startWorkerProcess, WorkerProcess } from '../../support/worker-process.js';

const FINAL = ['Finished', 'Failed', 'To review'];
const adminUrl = process.env.DATABASE_URL;
const onPostgres = !!adminUrl && !adminUrl.startsWith('pglite://');
/** Embedded PGlite has one session and no pg_terminate_backend: these faults need PostgreSQL. */
const describeOnPostgres = onPostgres ? describe : describe.skip;

let numbers = 0;
function goodNumber(): string {
  const i = numbers++;
  return `+1555${String(400 + Math.floor(i / 9000)).padStart(3, '0')}${1000 + (i % 9000)}`;
}

const databaseName = (t: TestApp) => new URL(t.databaseUrl).pathname.slice(1);

/** What a failover or a restart does to the service: every connection to its database is cut. */
function terminateEveryBackend(t: TestApp): Promise<number> {
  return withClient(adminUrl!, async (c) => {
    const { rowCount } = await c.query(
      `SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = $1`,
      [databaseName(t)],
    );
    return rowCount ?? 0;
  });
}

/** The database refuses connections (a primary being replaced) until `reopen`. */
async function closeDatabase(t: TestApp): Promise<void> {
  await withClient(adminUrl!, async (c) => {
    await c.query(`ALTER DATABASE ${databaseName(t)} WITH ALLOW_CONNECTIONS false`);
  });
  await terminateEveryBackend(t);
}

function reopenDatabase(t: TestApp): Promise<unknown> {
  return withClient(adminUrl!, (c) =>
    c.query(`ALTER DATABASE ${databaseName(t)} WITH ALLOW_CONNECTIONS true`),
  );
}

/**
 * The test's own reads and set-up may pick a pooled connection that was just terminated; like any
 * client after a failover, they try again.
 */
async function retried<T>(work: () => Promise<T>): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await work();
    } catch (err) {
      if (attempt >= 5 || !isDatabaseUnavailable(err)) throw err;
    }
  }
}

const alive = (w: WorkerProcess) => w.child.exitCode === null && w.child.signalCode === null;

describeOnPostgres('database faults (PostgreSQL only; skipped on embedded PGlite)', () => {
  let t: TestApp;
  let hook: WebhookReceiver;
  let workers: WorkerProcess[] = [];

  beforeAll(async () => {
    // This process serves the API only; two worker processes do all the calling and delivering.
    t = await createTestApp({
      env: {
        ROLE: 'api',
        // Calls long enough, and few enough at once, that the backends are cut while work is under way.
        SIMULATED_CALL_SECONDS: '0.5',
        WEBHOOK_RECOVERY_SECONDS: '2',
        WEBHOOK_RETRY_SCHEDULE: '1s,1s,1s,1s,1s',
      },
    });
    hook = await WebhookReceiver.start();
    workers = [startWorkerProcess(t), startWorkerProcess(t)];
    await Promise.all(workers.map((w) => w.ready));
  }, 90_000);

  afterAll(async () => {
    await reopenDatabase(t).catch(() => undefined);
    await Promise.all(workers.map((w) => w.kill()));
    await hook?.close();
    await t?.close();
  });

  async function launch(count: number) {
    const { apiKey } = await retried(() => t.createOrganization());
    const campaign = await t.createCampaign(apiKey, {
      webhook_url: hook.url,
      max_attempts: 3,
      retry_delay_minutes: 0,
      max_concurrent_calls: 5,
    });
    const res = await t
      .http()
      .post(`/api/v1/campaigns/${campaign.id}/targets`)
      .set('X-API-Key', apiKey)
      .send({
        launch: true,
        targets: Array.from({ length: count }, () => ({ phone_number: goodNumber() })),
      });
    expect(res.status).toBe(200);
    return { apiKey, campaignId: campaign.id as string };
  }

  const progress = (campaignId: string) =>
    retried(() =>
      t.sql<{ final: number; logs: number; undelivered: number; deliveries: number }>(
        `SELECT (SELECT count(*)::int FROM targets
                WHERE campaign_id = $1 AND status = ANY($2)) AS final,
              (SELECT count(*)::int FROM call_logs WHERE campaign_id = $1) AS logs,
              (SELECT count(*)::int FROM webhook_deliveries WHERE campaign_id = $1) AS deliveries,
              (SELECT count(*)::int FROM webhook_deliveries
                WHERE campaign_id = $1 AND status <> 'delivered') AS undelivered`,
        [campaignId, FINAL],
      ),
    );

  it('every backend terminated twice while calls and webhooks run: workers survive and finish everything', async () => {
    const targets = 60;
    const { campaignId } = await launch(targets);

    await waitFor(
      () => progress(campaignId),
      ([p]) => p.logs >= 5,
      30_000,
      20,
    );
    expect(await terminateEveryBackend(t)).toBeGreaterThan(0);
    const [afterFirst] = await progress(campaignId);
    await waitFor(
      () => progress(campaignId),
      ([p]) => p.logs > afterFirst.logs,
      30_000,
      20,
    );
    expect(await terminateEveryBackend(t)).toBeGreaterThan(0);

    const [done] = await waitFor(
      async () => {
        const rows = await progress(campaignId);
        return rows.map((p) => ({ ...p, workersAlive: workers.filter(alive).length }));
      },
      ([p]) => p.final === targets && p.deliveries >= targets && p.undelivered === 0,
      60_000,
      250,
    );
    expect(done).toMatchObject({ final: targets, undelivered: 0 });
    expect(workers.every(alive)).toBe(true);
    // Every target was called and its outcome notified; none was dialled more than its attempts.
    const perTarget = await retried(() =>
      t.sql<{ calls: number; delivered: number }>(
        `SELECT (SELECT count(*)::int FROM call_logs l WHERE l.target_id = t.id) AS calls,
              (SELECT count(*)::int FROM webhook_deliveries d JOIN webhook_events e ON e.id = d.event_id
                WHERE e.target_id = t.id AND d.status = 'delivered') AS delivered
         FROM targets t WHERE t.campaign_id = $1`,
        [campaignId],
      ),
    );
    expect(perTarget.every((r) => r.calls >= 1 && r.calls <= 3 && r.delivered >= 1)).toBe(true);
  });

  it('a failover: 503 with Retry-After and not ready while the database is away, then everything resumes', async () => {
    const { apiKey } = await retried(() => t.createOrganization());
    await closeDatabase(t);
    try {
      const down = await t.http().get('/api/v1/campaigns').set('X-API-Key', apiKey);
      expect(down.status).toBe(503);
      expect(down.body).toEqual({ detail: 'Service Unavailable' });
      expect(down.headers['retry-after']).toBe('5');
      expect((await t.http().get('/api/v1/health/ready')).status).toBe(503);
      expect((await t.http().get('/api/v1/health/live')).status).toBe(200);
    } finally {
      await reopenDatabase(t);
    }
    await waitFor(
      async () => (await t.http().get('/api/v1/health/ready')).status,
      (status) => status === 200,
      30_000,
    );

    // The workers rode the outage out and take new work.
    const { campaignId } = await launch(10);
    await waitFor(
      () => progress(campaignId),
      ([p]) => p.final === 10,
      60_000,
      250,
    );
    expect(workers.every(alive)).toBe(true);
  });
});
