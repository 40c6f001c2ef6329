import { randomBytes } from 'crypto';
import { Webhook } from 'standardwebhooks';
import { DataSource } from 'typeorm';
import {
  AdvisoryLockExclusiveRunner,
  SCHEMA_LOCK,
  withAdvisoryLock,
} from '../../src/database/advisory-lock-exclusive-runner.js';
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

  it('refuses an address after repeated failed authentications (X-Forwarded-For ignored), never its valid key', async () => {
    const { apiKey } = await t.createOrganization();
    const attempts: number[] = [];
    for (let i = 0; i < 4; i++) {
      attempts.push(
        (
          await t
            .http()
            .get('/api/v1/campaigns')
            .set('X-API-Key', `wrong-${i}`)
            // TRUST_PROXY is off: a client naming another address changes nothing.
            .set('X-Forwarded-For', `198.51.100.${i}`)
        ).status,
      );
    }
    expect(attempts).toEqual([401, 401, 401, 429]);
    const blocked = await t.http().get('/api/v1/campaigns').set('X-API-Key', 'wrong-again');
    expect(blocked.status).toBe(429);
    expect(blocked.body).toEqual({ detail: 'Too Many Requests' });
    expect(Number(blocked.headers['retry-after'])).toBeGreaterThanOrEqual(1);
    // A valid key is never refused for failures, its own address's included.
    expect((await t.http().get('/api/v1/campaigns').set('X-API-Key', apiKey)).status).toBe(200);
    // Health stays reachable for probes.
    expect((await t.http().get('/api/v1/health')).status).toBe(200);
  });
});

describe('failed authentications behind a load balancer (TRUST_PROXY=1)', () => {
  let t: TestApp;
  const secret = `whsec_${Buffer.from('a shared secret of 24 bytes!').toString('base64')}`;
  beforeAll(async () => {
    t = await createTestApp({
      env: {
        AUTH_FAILURE_LIMIT: '3',
        RATE_LIMIT_WINDOW: '1m',
        TRUST_PROXY: '1',
        SECRETS_KEY: randomBytes(32).toString('base64'),
      },
    });
  });
  afterAll(() => t.close());

  /** As one load balancer forwards it: whatever the client sent, then the address it saw. */
  const via = (client: string, claimed?: string) => ({
    'X-Forwarded-For': claimed ? `${claimed}, ${client}` : client,
  });
  const campaigns = (key: string, headers: Record<string, string>) =>
    t.http().get('/api/v1/campaigns').set('X-API-Key', key).set(headers);

  it('limits by the address the balancer saw: a client naming others in X-Forwarded-For gains nothing', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 4; i++) {
      statuses.push((await campaigns(`bad-${i}`, via('203.0.113.1', `10.9.9.${i}`))).status);
    }
    expect(statuses).toEqual([401, 401, 401, 429]);
    // Another client behind the same balancer is not locked out by them.
    expect((await campaigns('bad-other', via('203.0.113.2'))).status).toBe(401);
    const { apiKey } = await t.createOrganization();
    expect((await campaigns(apiKey, via('203.0.113.1'))).status).toBe(200);
  });

  it('limits one key prefix guessed from many addresses, and never a valid key of that prefix', async () => {
    const { apiKey } = await t.createOrganization();
    const prefix = apiKey.slice(0, 10);
    const statuses: number[] = [];
    for (let i = 0; i < 4; i++) {
      statuses.push((await campaigns(`${prefix}guess${i}`, via(`192.0.2.${i + 1}`))).status);
    }
    expect(statuses).toEqual([401, 401, 401, 429]);
    expect((await campaigns(apiKey, via('192.0.2.99'))).status).toBe(200);
    expect((await campaigns('ccs_other-prefix', via('192.0.2.100'))).status).toBe(401);
  });

  it('counts failed provider event signatures too; a signed event still gets through', async () => {
    const { apiKey } = await t.createOrganization();
    const connection = await t
      .http()
      .post('/api/v1/provider-connections')
      .set('X-API-Key', apiKey)
      .send({
        type: 'http',
        name: 'agent',
        credentials: { secret },
        settings: { api_base_url: 'https://93.184.216.34/calls' },
      });
    expect(connection.status).toBe(201);
    const url = `/api/v1/telephony/${connection.body.id}/events`;
    const body = JSON.stringify({ type: 'call.ended', call_log_id: 999999, outcome: 'GOOD' });
    const statuses: number[] = [];
    for (let i = 0; i < 4; i++) {
      const res = await t
        .http()
        .post(url)
        .set(via('203.0.113.50'))
        .set('Content-Type', 'application/json')
        .set('webhook-id', `msg-${i}`)
        .set('webhook-timestamp', String(Math.floor(Date.now() / 1000)))
        .set('webhook-signature', 'v1,forged')
        .send(body);
      statuses.push(res.status);
    }
    expect(statuses).toEqual([401, 401, 401, 429]);
    const signed = new Webhook(secret).sign('msg-ok', new Date(), body);
    const res = await t
      .http()
      .post(url)
      .set(via('203.0.113.50'))
      .set('Content-Type', 'application/json')
      .set('webhook-id', 'msg-ok')
      .set('webhook-timestamp', String(Math.floor(Date.now() / 1000)))
      .set('webhook-signature', signed)
      .send(body);
    // Authenticated: past the limiter, to the event's own answer (no such call).
    expect([res.status, res.body]).toEqual([404, { detail: 'Call not found' }]);
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
