import { exited, freePort, startProcess } from '../../support/run-process.js';
import { createTestApp, TEST_ENV, TestApp, waitFor } from '../../support/test-app.js';
import { recordCallFinished } from '../../support/outbox-events.js';
import { createTestDatabase, TestDatabase, withClient } from '../../support/test-database.js';
import { WebhookReceiver } from '../../support/webhook-receiver.js';
import { startWorkerProcess, WorkerProcess } from '../../support/worker-process.js';

const adminUrl = process.env.DATABASE_URL;
const onPostgres = !!adminUrl && !adminUrl.startsWith('pglite://');
/** Embedded PGlite is single-process: several processes migrating it at once is not a thing. */
const describeOnPostgres = onPostgres ? describe : describe.skip;

describeOnPostgres(
  'an api and two workers started at the same moment on an empty database (PostgreSQL only; skipped on embedded PGlite)',
  () => {
    let database: TestDatabase;
    const children: { stop(): Promise<unknown> }[] = [];
    afterAll(async () => {
      await Promise.all(children.map((c) => c.stop()));
      await database?.drop();
    });

    it('one process migrates and creates the queues, the others wait; all three run and stop with 0', async () => {
      database = await createTestDatabase({ empty: true }); // the processes migrate it
      const port = await freePort();
      const env = { ...TEST_ENV, DATABASE_URL: database.url, MIGRATIONS_RUN: 'true' };
      const api = startProcess('main.ts', { ...env, ROLE: 'api', PORT: String(port) });
      children.push({ stop: async () => (api.kill('SIGKILL'), exited(api)) });
      const workers: WorkerProcess[] = [
        startWorkerProcess({ databaseUrl: database.url, env }, { MIGRATIONS_RUN: 'true' }),
        startWorkerProcess({ databaseUrl: database.url, env }, { MIGRATIONS_RUN: 'true' }),
      ];
      children.push(...workers.map((w) => ({ stop: () => w.kill() })));

      await Promise.all(workers.map((w) => w.ready));
      await waitFor(
        async () => {
          if (api.exitCode !== null) throw new Error(`the api exited: ${api.output()}`);
          return fetch(`http://127.0.0.1:${port}/api/v1/health/ready`).then(
            (r) => r.status,
            () => 0,
          );
        },
        (status) => status === 200,
        90_000,
        200,
      );
      expect(api.output()).not.toMatch(/deadlock/i);

      const [{ migrations, queues }] = await withClient(database.url, async (c) => {
        const { rows } = await c.query(
          `SELECT (SELECT count(*)::int FROM schema_migrations) AS migrations,
                  (SELECT count(*)::int FROM pgboss.queue) AS queues`,
        );
        return rows;
      });
      expect(migrations).toBeGreaterThan(0);
      expect(queues).toBeGreaterThan(0);

      api.kill('SIGTERM');
      const codes = await Promise.all([
        exited(api),
        ...workers.map(async (w) => {
          await w.stop();
          return w.child.exitCode;
        }),
      ]);
      expect(codes).toEqual([0, 0, 0]);
    }, 120_000);
  },
);

describe('SIGTERM while a worker holds work', () => {
  let t: TestApp;
  let hook: WebhookReceiver;
  let release: () => void = () => undefined;
  const workers: WorkerProcess[] = [];

  beforeAll(async () => {
    t = await createTestApp({ env: { ROLE: 'api' } });
    // The receiver holds the first request until the test lets it go.
    ({ receiver: hook, release } = await WebhookReceiver.holdingFirst());
  });
  afterAll(async () => {
    release();
    await Promise.all(workers.map((w) => w.kill()));
    await hook.close();
    await t.close();
  });

  it('stops taking jobs, finishes the one in hand, and exits 0 within SHUTDOWN_TIMEOUT', async () => {
    const healthPort = await freePort();
    const worker = startWorkerProcess(t, {
      SHUTDOWN_TIMEOUT: '10s',
      HEALTH_PORT: String(healthPort),
      HOST: '127.0.0.1',
    });
    workers.push(worker);
    await worker.ready;
    // A worker has no API, but answers its probes and Prometheus on HEALTH_PORT.
    const probe = (path: string) => fetch(`http://127.0.0.1:${healthPort}${path}`);
    expect((await probe('/api/v1/health/ready')).status).toBe(200);
    expect((await probe('/api/v1/health/live')).status).toBe(200);
    expect(await (await probe('/metrics')).text()).toMatch(/^job_queue_waiting\{queue="/m);
    const { apiKey } = await t.createOrganization();
    const campaign = await t.createCampaign(apiKey, { webhook_url: hook.url });
    await recordCallFinished(t, campaign);
    await hook.waitForRequests(1, 60_000);

    const stopping = Date.now();
    worker.child.kill('SIGTERM');
    // The worker is now draining: it must wait for the request it holds, not drop it.
    const deliveryStatus = () =>
      t.sql<{ status: string }>(`SELECT status FROM webhook_deliveries WHERE campaign_id = $1`, [
        campaign.id,
      ]);
    expect(await deliveryStatus()).toEqual([{ status: 'sending' }]);
    expect(worker.child.exitCode).toBeNull();
    release();

    expect(await exited(worker.child)).toBe(0);
    expect(Date.now() - stopping).toBeLessThan(10_000);
    expect(await deliveryStatus()).toEqual([{ status: 'delivered' }]);
    expect(hook.count).toBe(1);
  }, 90_000);
});

describe('configuration errors at start', () => {
  it('lists every problem, one line each, without a stack trace, and exits 1', async () => {
    const service = startProcess('main.ts', {
      DATABASE_URL: 'pglite://memory',
      PORT: 'eighty',
      MIGRATIONS_RUN: 'maybe',
      PUBLIC_BASE_URL: 'not a url',
    });
    expect(await exited(service)).toBe(1);
    const lines = service
      .output()
      .split('\n')
      .filter((l) => l.trim() !== '');
    expect(lines).toEqual([
      'Invalid configuration:',
      '  PORT: must be an integer, got "eighty"',
      '  MIGRATIONS_RUN: must be true, false, 1 or 0, got "maybe"',
      '  PUBLIC_BASE_URL: must be an http(s) URL such as https://calls.example.com, got "not a url"',
    ]);
  }, 60_000);
});
