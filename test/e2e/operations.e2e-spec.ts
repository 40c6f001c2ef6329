import { DataSource } from 'typeorm';
import {
  AdvisoryLockExclusiveRunner,
  SCHEMA_LOCK,
  withAdvisoryLock,
} from '../../src/database/advisory-lock.js';
import { runMigrationsLocked } from '../../src/database/migrations-runner.js';
import { waitForNoDeliveryJobs } from '../support/jobs.js';
import { createTestApp, TestApp, waitFor } from '../support/test-app.js';
import { WebhookReceiver } from '../support/webhook-receiver.js';

describe('rate limits', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({
      env: { RATE_LIMIT_REQUESTS: '5', RATE_LIMIT_WINDOW: '1m', AUTH_FAILURE_LIMIT: '3' },
    });
  });
  afterAll(() => t.close());

  it('answers 429 with Retry-After once a key has made its requests for the window, per key', async () => {
    const { apiKey } = await t.createOrganization();
    const statuses: number[] = [];
    for (let i = 0; i < 5; i++) {
      statuses.push((await t.http().get('/api/v1/campaigns').set('X-API-Key', apiKey)).status);
    }
    expect(statuses).toEqual([200, 200, 200, 200, 200]);
    const limited = await t.http().get('/api/v1/campaigns').set('X-API-Key', apiKey);
    expect(limited.status).toBe(429);
    expect(limited.body).toEqual({ detail: 'Too Many Requests' });
    expect(Number(limited.headers['retry-after'])).toBeGreaterThanOrEqual(1);
    expect(Number(limited.headers['retry-after'])).toBeLessThanOrEqual(60);

    // Another key of the same client is counted on its own.
    const other = await t.createOrganization();
    expect((await t.http().get('/api/v1/campaigns').set('X-API-Key', other.apiKey)).status).toBe(
      200,
    );
  });

  it('refuses an address after repeated failed authentications, even with a valid key', async () => {
    const { apiKey } = await t.createOrganization();
    const attempts: number[] = [];
    for (let i = 0; i < 4; i++) {
      attempts.push(
        (await t.http().get('/api/v1/campaigns').set('X-API-Key', `wrong-${i}`)).status,
      );
    }
    expect(attempts).toEqual([401, 401, 401, 429]);
    const blocked = await t.http().get('/api/v1/campaigns').set('X-API-Key', apiKey);
    expect(blocked.status).toBe(429);
    expect(blocked.body).toEqual({ detail: 'Too Many Requests' });
    expect(Number(blocked.headers['retry-after'])).toBeGreaterThanOrEqual(1);
    // Health stays reachable for probes.
    expect((await t.http().get('/api/v1/health')).status).toBe(200);
  });
});

describe('webhooks: 410 Gone, attempts in metrics', () => {
  let t: TestApp;
  let hook: WebhookReceiver;
  beforeAll(async () => {
    t = await createTestApp({ env: { WEBHOOK_RETRY_SCHEDULE: '1s,1s,1s' } });
    hook = await WebhookReceiver.start(() => ({ status: 410, body: 'no such subscription' }));
  });
  afterAll(async () => {
    await hook.close();
    await t.close();
  });

  it('a receiver answering 410 ends that delivery at once: failed, one attempt, recorded as gone', async () => {
    const { apiKey } = await t.createOrganization();
    const campaign = await t.createCampaign(apiKey, { webhook_url: hook.url });
    const add = await t
      .http()
      .post(`/api/v1/campaigns/${campaign.id}/targets`)
      .set('X-API-Key', apiKey)
      .send({ launch: true, targets: [{ phone_number: '+15550101234' }] });
    expect(add.status).toBe(200);

    const [delivery] = await waitFor(
      () =>
        t.sql(`SELECT id, status, attempts FROM webhook_deliveries WHERE campaign_id = $1`, [
          campaign.id,
        ]),
      (rows) => rows.length > 0 && rows.every((r) => r.status === 'failed'),
      30_000,
    );
    // Nothing can send it again once no job for it is queued, retrying or running (the job that
    // marked it failed is completed just after); then the receiver must have had one request only.
    await waitForNoDeliveryJobs(t, [delivery.id]);
    const [final] = await t.sql(`SELECT attempts FROM webhook_deliveries WHERE id = $1`, [
      delivery.id,
    ]);
    expect(final.attempts).toBe(1);
    const attempts = await t.sql(
      `SELECT status_code, error FROM webhook_delivery_attempts WHERE delivery_id = $1`,
      [delivery.id],
    );
    expect(attempts).toEqual([
      {
        status_code: 410,
        error: 'HTTP 410 Gone: the receiver asked for no more deliveries; not retried',
      },
    ]);
    expect(hook.count).toBe(1);

    const metrics = await t.http().get('/metrics');
    expect(metrics.status).toBe(200);
    expect(metrics.headers['content-type']).toContain('text/plain');
    expect(metrics.text).toMatch(/^webhook_delivery_attempts_total\{outcome="gone"\} 1$/m);
    expect(metrics.text).toMatch(
      /^http_requests_total\{method="POST",route="\/api\/v1\/campaigns\/:campaign_id\/targets",status="200"\} 1$/m,
    );
    expect(metrics.text).toMatch(
      /^http_request_duration_seconds_count\{method="POST",route="\/api\/v1\/campaigns\/:campaign_id\/targets",status="200"\} 1$/m,
    );
    expect(metrics.text).toMatch(/^job_queue_waiting\{queue="[^"]+"\} \d+$/m);
    expect(metrics.text).toMatch(/^calls_in_flight \d+$/m);
    expect(metrics.text).toMatch(/^db_pool_connections\{pool="app",state="in_use"\} \d+$/m);
    expect(metrics.text).toMatch(/^db_pool_connections\{pool="jobs",state="idle"\} \d+$/m);
  });
});

describe('request metrics and answer headers', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  const series = (text: string, name: string, labels: string) => {
    const escaped = labels.replace(/[/{}:]/g, (c) => `\\${c}`);
    const match = new RegExp(`^${name}\\{${escaped}\\} (\\d+)$`, 'm').exec(text);
    return match ? Number(match[1]) : null;
  };

  it('counts every answer by route template, including bodies refused before routing', async () => {
    const { apiKey } = await t.createOrganization();
    const campaign = await t.createCampaign(apiKey);
    for (let i = 0; i < 3; i++) {
      const res = await t.http().get(`/api/v1/campaigns/${campaign.id}`).set('X-API-Key', apiKey);
      expect(res.status).toBe(200);
    }
    const malformed = await t
      .http()
      .post(`/api/v1/campaigns/${campaign.id}/targets`)
      .set('X-API-Key', apiKey)
      .set('Content-Type', 'application/json')
      .send('{"targets": [');
    expect(malformed.status).toBe(422);
    expect((await t.http().get('/api/v1/no-such-route')).status).toBe(404);

    const text = (await t.http().get('/metrics')).text;
    const byId = 'method="GET",route="/api/v1/campaigns/:campaign_id",status="200"';
    expect(series(text, 'http_requests_total', byId)).toBe(3);
    expect(series(text, 'http_request_duration_seconds_count', byId)).toBe(3);
    const refused = 'method="POST",route="unmatched",status="422"';
    expect(series(text, 'http_requests_total', refused)).toBe(1);
    expect(series(text, 'http_request_duration_seconds_count', refused)).toBe(1);
    const unknown = 'method="GET",route="unmatched",status="404"';
    expect(series(text, 'http_requests_total', unknown)).toBe(1);

    // The counter is the histogram's count at every scrape, not a copy frozen at the first one.
    await t.http().get(`/api/v1/campaigns/${campaign.id}`).set('X-API-Key', apiKey);
    const again = (await t.http().get('/metrics')).text;
    expect(series(again, 'http_requests_total', byId)).toBe(4);
    expect(series(again, 'http_request_duration_seconds_count', byId)).toBe(4);
  });

  it('answers the API without an ETag, as FastAPI does', async () => {
    const { apiKey } = await t.createOrganization();
    const res = await t.http().get('/api/v1/campaigns').set('X-API-Key', apiKey);
    expect(res.status).toBe(200);
    expect(res.headers.etag).toBeUndefined();
    expect(res.headers['content-type']).toBe('application/json; charset=utf-8');
  });
});

describe('health: liveness and readiness', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  it('is live and ready while the database answers; only liveness stays up once it is gone', async () => {
    expect((await t.http().get('/api/v1/health/live')).body).toEqual({ status: 'ok' });
    const ready = await t.http().get('/api/v1/health/ready');
    expect(ready.status).toBe(200);
    expect(ready.body).toMatchObject({
      status: 'ok',
      info: { process: { status: 'up' }, database: { status: 'up' }, job_queue: { status: 'up' } },
    });
    const { apiKey } = await t.createOrganization();

    await t.cutDatabase();
    const api = await t.http().get('/api/v1/campaigns').set('X-API-Key', apiKey);
    expect(api.status).toBe(503);
    expect(api.body).toEqual({ detail: 'Service Unavailable' });
    expect(api.headers['retry-after']).toBe('5');
    const notReady = await t.http().get('/api/v1/health/ready');
    expect(notReady.status).toBe(503);
    expect(notReady.headers['retry-after']).toBe('5');
    expect(notReady.body).toMatchObject({
      status: 'error',
      error: { database: { status: 'down' } },
    });
    const live = await t.http().get('/api/v1/health/live');
    expect(live.status).toBe(200);
  });
});

const onPostgres = !!process.env.DATABASE_URL && !process.env.DATABASE_URL.startsWith('pglite://');

/** PGlite is one session: an advisory lock cannot keep two of its "connections" apart. */
(onPostgres ? describe : describe.skip)(
  'advisory locks between processes (PostgreSQL only; skipped on embedded PGlite)',
  () => {
    let t: TestApp;
    beforeAll(async () => {
      t = await createTestApp();
    });
    afterAll(() => t.close());

    /** Until this database shows a granted advisory lock (that one, when `objid` is given). */
    const advisoryLockGranted = (objid?: number) =>
      waitFor(
        () =>
          t.sql(`SELECT count(*)::int AS n FROM pg_locks
              WHERE locktype = 'advisory' AND granted ${objid === undefined ? '' : `AND objid = ${objid}`}
                AND database = (SELECT oid FROM pg_database WHERE datname = current_database())`),
        ([row]) => row.n > 0,
      );

    describe('housekeeping runs in one process at a time', () => {
      it('a second runner skips a task while another holds it, and runs it once it is free', async () => {
        const dataSource = t.app.get(DataSource);
        const first = new AdvisoryLockExclusiveRunner(dataSource);
        const second = new AdvisoryLockExclusiveRunner(dataSource);
        let release: () => void = () => undefined;
        const held = first.runExclusive(
          'test-task',
          () => new Promise<string>((resolve) => (release = () => resolve('first'))),
        );
        await advisoryLockGranted();
        expect(await second.runExclusive('test-task', async () => 'second')).toEqual({
          ran: false,
        });
        expect(await second.runExclusive('other-task', async () => 'other')).toEqual({
          ran: true,
          result: 'other',
        });
        release();
        expect(await held).toEqual({ ran: true, result: 'first' });
        expect(await second.runExclusive('test-task', async () => 'second')).toEqual({
          ran: true,
          result: 'second',
        });
      });
    });

    describe('a start with nothing to migrate', () => {
      it('does not wait for the schema lock: one read of schema_migrations says every migration is applied', async () => {
        const dataSource = t.app.get(DataSource);
        let release: () => void = () => undefined;
        // Another process applying migrations, as far as the lock says.
        const held = withAdvisoryLock(
          dataSource,
          SCHEMA_LOCK,
          () => new Promise<void>((resolve) => (release = resolve)),
        );
        await advisoryLockGranted(SCHEMA_LOCK);
        // Before round 3 this waited for the lock; now it answers while the lock is still held.
        expect(await runMigrationsLocked(dataSource)).toEqual([]);
        release();
        await held;
      });
    });
  },
);

describe.each([
  ['silent', 'pino-http not mounted'],
  ['fatal', 'pino-http mounted'],
])('request ids at LOG_LEVEL=%s (%s)', (level) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ env: { LOG_LEVEL: level } });
  });
  afterAll(() => t.close());

  it("echoes the caller's X-Request-Id, and gives every other request a new one", async () => {
    const { apiKey } = await t.createOrganization();
    const given = await t
      .http()
      .get('/api/v1/campaigns')
      .set('X-API-Key', apiKey)
      .set('X-Request-Id', 'trace-7f3a/1');
    expect(given.status).toBe(200);
    expect(given.headers['x-request-id']).toBe('trace-7f3a/1');

    const uuid = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
    const first = await t.http().get('/api/v1/campaigns').set('X-API-Key', apiKey);
    const second = await t.http().get('/api/v1/campaigns').set('X-API-Key', 'not-a-key');
    expect(second.status).toBe(401);
    expect([first.headers['x-request-id'], second.headers['x-request-id']]).toEqual([
      expect.stringMatching(uuid),
      expect.stringMatching(uuid),
    ]);
    expect(first.headers['x-request-id']).not.toBe(second.headers['x-request-id']);

    // An id that could not be logged or echoed safely (too long, spaces) is replaced.
    const odd = await t
      .http()
      .get('/api/v1/health')
      .set('X-Request-Id', `${'x'.repeat(129)}`);
    expect(odd.headers['x-request-id']).toMatch(uuid);
    const spaced = await t.http().get('/api/v1/health').set('X-Request-Id', 'a b');
    expect(spaced.headers['x-request-id']).toMatch(uuid);
  });
});
