import { randomUUID } from 'crypto';
import { Webhook } from 'standardwebhooks';
import { CallFinishedEvent, Outbox } from '../../src/modules/webhook/application/ports/outbox.js';
import { UnitOfWork } from '../../src/common/persistence/unit-of-work.js';
import { WebhookDeliveryRepository } from '../../src/modules/webhook/application/ports/webhook-delivery.repository.js';
import { createTestApp, TestApp, waitFor } from '../support/test-app.js';
import { orphanDeliveryJobs, waitForNoDeliveryJobs } from '../support/jobs.js';
import { WebhookReceiver, WebhookReceivers } from '../support/webhook-receiver.js';

const ISO = expect.stringMatching(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);
const UUID = expect.stringMatching(/^[0-9a-f-]{36}$/);

describe('webhook notifications', () => {
  let t: TestApp;
  const receivers = new WebhookReceivers();

  beforeAll(async () => {
    // Recovery sweep every second, for the lost-job test.
    t = await createTestApp({ env: { WEBHOOK_RECOVERY_SECONDS: '1' } });
  });
  afterAll(async () => {
    await receivers.closeAll();
    await t.close();
  });

  async function setup(webhookUrl: string | null) {
    const org = await t.createOrganization();
    const campaign = await t.createCampaign(
      org.apiKey,
      webhookUrl ? { webhook_url: webhookUrl, max_attempts: 3 } : {},
    );
    return { ...org, campaign };
  }

  function event(
    campaign: { id: string; organization_id: string },
    overrides: Partial<CallFinishedEvent> = {},
  ) {
    return {
      organizationId: campaign.organization_id,
      campaignId: campaign.id,
      targetId: randomUUID(),
      callLogId: 17,
      attempt: 1,
      maxAttempts: 3,
      nextAttemptScheduled: new Date('2026-03-01T15:00:00.000Z'),
      status: 'Scheduled',
      resolution: 'unsuccessful',
      category: 'NO_RESPONSE',
      subcategory: null,
      ...overrides,
    } satisfies CallFinishedEvent;
  }

  async function record(...events: CallFinishedEvent[]): Promise<void> {
    const outbox = t.app.get(Outbox);
    await t.app.get(UnitOfWork).run(async (tx) => {
      for (const e of events) await outbox.record(tx, [{ kind: 'call_finished', event: e }]);
    });
  }

  const deliveries = (apiKey: string, campaignId: string, query = '') =>
    t
      .http()
      .get(`/api/v1/campaigns/${campaignId}/webhooks/deliveries${query}`)
      .set('X-API-Key', apiKey);

  async function waitForStatus(apiKey: string, campaignId: string, status: string, count = 1) {
    const res = await waitFor(
      () => deliveries(apiKey, campaignId),
      (r) =>
        r.body.deliveries?.length === count &&
        r.body.deliveries.every((d: any) => d.status === status),
    );
    return res.body.deliveries as any[];
  }

  it('delivers a finished call once, signed so the standardwebhooks library verifies it', async () => {
    const hook = await receivers.start();
    const { apiKey, campaign } = await setup(hook.url);
    const e = event(campaign);
    await record(e);

    const [request] = await hook.waitForRequests(1);
    const payload = new Webhook(campaign.webhook_secret).verify(
      request.body,
      request.headers as Record<string, string>,
    );
    expect(payload).toEqual({
      type: 'target.call_finished',
      campaign_id: campaign.id,
      target_id: e.targetId,
      call_log_id: 17,
      attempt: 1,
      max_attempts: 3,
      next_attempt_scheduled: '2026-03-01T15:00:00.000Z',
      status: 'Scheduled',
      resolution: 'unsuccessful',
      category: 'NO_RESPONSE',
      subcategory: null,
    });
    // The raw body keeps the documented key order.
    expect(Object.keys(JSON.parse(request.body))).toEqual([
      'type',
      'campaign_id',
      'target_id',
      'call_log_id',
      'attempt',
      'max_attempts',
      'next_attempt_scheduled',
      'status',
      'resolution',
      'category',
      'subcategory',
    ]);
    expect(request.headers['content-type']).toBe('application/json');
    expect(request.headers['user-agent']).toMatch(/^campaign-calling-service\/\d+\.\d+\.\d+/);
    expect(request.headers['webhook-signature']).toMatch(/^v1,/);
    expect(Math.abs(Number(request.headers['webhook-timestamp']) - Date.now() / 1000)).toBeLessThan(
      60,
    );

    const [delivery] = await waitForStatus(apiKey, campaign.id, 'delivered');
    expect(request.headers['webhook-id']).toBe(delivery.event_id);
    const list = await deliveries(apiKey, campaign.id);
    expect(list.status).toBe(200);
    expect(list.body).toEqual({
      deliveries: [
        {
          id: UUID,
          event_id: request.headers['webhook-id'],
          event_type: 'target.call_finished',
          campaign_id: campaign.id,
          target_id: e.targetId,
          status: 'delivered',
          attempt_count: 1,
          next_attempt_at: null,
          last_status_code: 200,
          last_error: null,
          last_attempt_at: ISO,
          delivered_at: ISO,
          payload,
          created_at: ISO,
          updated_at: ISO,
        },
      ],
      page_count: 1,
      next_page: null,
    });

    const detail = await t
      .http()
      .get(`/api/v1/webhook-deliveries/${delivery.id}`)
      .set('X-API-Key', apiKey);
    expect(detail.status).toBe(200);
    expect(detail.body).toEqual({
      ...list.body.deliveries[0],
      attempts: [
        {
          attempted_at: ISO,
          url: hook.url,
          status_code: 200,
          duration_ms: expect.any(Number),
          success: true,
          error: null,
          response_excerpt: 'ok',
        },
      ],
    });
    // Delivered means done: once no job for it is left, no second request can arrive.
    await waitForNoDeliveryJobs(t, [delivery.id]);
    expect(hook.received).toHaveLength(1);
  });

  it('notifies every call attempt of the simulator, and a blacklisted target that ends without a call', async () => {
    const hook = await receivers.start();
    const { apiKey } = await t.createOrganization();
    const blacklist = await t
      .http()
      .post('/api/v1/blacklists')
      .set('X-API-Key', apiKey)
      .send({ name: 'dnc' });
    await t
      .http()
      .post(`/api/v1/blacklists/${blacklist.body.id}/phone-numbers`)
      .set('X-API-Key', apiKey)
      .send({ phone_numbers: [{ phone_number: '+15550107000' }] });
    const campaign = await t.createCampaign(apiKey, {
      webhook_url: hook.url,
      max_attempts: 2,
      retry_delay_minutes: 0,
      blacklist_ids: [blacklist.body.id],
    });
    const added = await t
      .http()
      .post(`/api/v1/campaigns/${campaign.id}/targets`)
      .set('X-API-Key', apiKey)
      .send({
        targets: [
          { phone_number: '+15550101234' },
          { phone_number: '+15550100001' },
          { phone_number: '+15550107000' },
        ],
        launch: true,
      });
    expect(added.status).toBe(200);
    const [good, voicemail, blacklisted] = added.body.target_ids;

    const requests = await hook.waitForRequests(4, 60_000);
    const payloads = requests.map(
      (r) =>
        new Webhook(campaign.webhook_secret).verify(
          r.body,
          r.headers as Record<string, string>,
        ) as any,
    );
    const byTarget = (id: string) =>
      payloads.filter((p) => p.target_id === id).sort((a, b) => a.attempt - b.attempt);
    const [goodLog] = (await t.sql('SELECT id FROM call_logs WHERE target_id = $1', [good])).map(
      (r) => Number(r.id),
    );
    const voicemailLogs = (
      await t.sql('SELECT id FROM call_logs WHERE target_id = $1 ORDER BY id', [voicemail])
    ).map((r) => Number(r.id));
    const common = { type: 'target.call_finished', campaign_id: campaign.id, max_attempts: 2 };
    // The last event of a target carries the target's final state, as the API shows it.
    const final = async (id: string) => {
      const target = (await t.http().get(`/api/v1/targets/${id}`).set('X-API-Key', apiKey)).body;
      return {
        status: target.status,
        resolution: target.resolution,
        category: target.category,
        subcategory: target.subcategory,
      };
    };
    expect(byTarget(good)).toEqual([
      {
        ...common,
        target_id: good,
        call_log_id: goodLog,
        attempt: 1,
        next_attempt_scheduled: null,
        ...(await final(good)),
      },
    ]);
    expect(byTarget(voicemail)).toEqual([
      {
        ...common,
        target_id: voicemail,
        call_log_id: voicemailLogs[0],
        attempt: 1,
        next_attempt_scheduled: ISO,
        status: 'Scheduled',
        resolution: null,
        category: 'VOICEMAIL',
        subcategory: 'DELIVERED',
      },
      {
        ...common,
        target_id: voicemail,
        call_log_id: voicemailLogs[1],
        attempt: 2,
        next_attempt_scheduled: null,
        ...(await final(voicemail)),
      },
    ]);
    expect(byTarget(blacklisted)).toEqual([
      {
        ...common,
        target_id: blacklisted,
        call_log_id: null,
        attempt: expect.any(Number),
        next_attempt_scheduled: null,
        ...(await final(blacklisted)),
      },
    ]);
    expect([
      byTarget(good)[0].category,
      byTarget(voicemail)[1].status,
      byTarget(blacklisted)[0].category,
    ]).toEqual(['GOOD', 'Finished', 'BLACKLISTED_PHONE']);
    await waitForStatus(apiKey, campaign.id, 'delivered', 4);
    expect(new Set(requests.map((r) => r.headers['webhook-id'])).size).toBe(4);
  });

  it('recovers a delivery whose job was lost and whose claim was abandoned (at least once, never lost)', async () => {
    const hook = await receivers.start();
    const { apiKey, campaign } = await setup(hook.url);
    const repository = t.app.get(WebhookDeliveryRepository);
    const now = new Date();
    // The event is written without its job, as if the job had been lost ...
    const [deliveryId] = await t.app.get(UnitOfWork).run((tx) =>
      repository.recordEvents(tx, [
        {
          id: randomUUID(),
          organizationId: campaign.organization_id,
          campaignId: campaign.id,
          targetId: randomUUID(),
          type: 'target.call_finished',
          payload: { type: 'target.call_finished', campaign_id: campaign.id },
          createdAt: now,
        },
      ]),
    );
    // ... and a worker claimed it, then died before sending (its lease runs out in a second).
    const claim = await repository.claim(
      deliveryId,
      new Date(),
      new Date(Date.now() + 1000),
      randomUUID(),
    );
    expect(claim).toMatchObject({ id: deliveryId, runAttempts: 1, url: hook.url });
    expect(
      await repository.claim(deliveryId, new Date(), new Date(Date.now() + 1000), randomUUID()),
    ).toBeNull();

    const [request] = await hook.waitForRequests(1, 30_000);
    expect(request.headers['webhook-id']).toBe(claim!.eventId);
    const [delivery] = await waitForStatus(apiKey, campaign.id, 'delivered');
    expect(delivery.attempt_count).toBe(2);
  });

  it('records the event but creates no delivery for a campaign without webhook_url', async () => {
    const { apiKey, campaign } = await setup(null);
    await record(event(campaign));
    const events = await t.sql('SELECT type, payload FROM webhook_events WHERE campaign_id = $1', [
      campaign.id,
    ]);
    expect(events).toEqual([
      {
        type: 'target.call_finished',
        payload: expect.objectContaining({ campaign_id: campaign.id }),
      },
    ]);
    const list = await deliveries(apiKey, campaign.id);
    expect(list.body).toEqual({ deliveries: [], page_count: 0, next_page: null });
  });

  it('writes nothing when the caller rolls its transaction back (outbox)', async () => {
    const hook = await receivers.start();
    const { campaign } = await setup(hook.url);
    const outbox = t.app.get(Outbox);
    await expect(
      t.app.get(UnitOfWork).run(async (tx) => {
        await outbox.record(tx, [{ kind: 'call_finished', event: event(campaign) }]);
        throw new Error('state change failed');
      }),
    ).rejects.toThrow('state change failed');
    expect(
      await t.sql('SELECT id FROM webhook_events WHERE campaign_id = $1', [campaign.id]),
    ).toEqual([]);
    expect(
      await t.sql('SELECT id FROM webhook_deliveries WHERE campaign_id = $1', [campaign.id]),
    ).toEqual([]);
    // No job was left behind either, so nothing can ever be sent.
    expect(await orphanDeliveryJobs(t)).toEqual([]);
    expect(hook.received).toHaveLength(0);
  });

  it('retries a receiver answering 500 twice and delivers on the third attempt with the same webhook-id', async () => {
    const hook = await receivers.start((_req, i) =>
      i < 2 ? { status: 500, body: `boom ${i}` } : { status: 204 },
    );
    const { apiKey, campaign } = await setup(hook.url);
    await record(event(campaign));

    const requests = await hook.waitForRequests(3);
    const [delivery] = await waitForStatus(apiKey, campaign.id, 'delivered');
    expect(new Set(requests.map((r) => r.headers['webhook-id']))).toEqual(
      new Set([delivery.event_id]),
    );
    for (const r of requests) {
      expect(() =>
        new Webhook(campaign.webhook_secret).verify(r.body, r.headers as Record<string, string>),
      ).not.toThrow();
    }
    // Attempts are spaced by the schedule (1s,1s in tests).
    expect(
      requests[1].receivedAt.getTime() - requests[0].receivedAt.getTime(),
    ).toBeGreaterThanOrEqual(900);

    const detail = await t
      .http()
      .get(`/api/v1/webhook-deliveries/${delivery.id}`)
      .set('X-API-Key', apiKey);
    expect(detail.body.status).toBe('delivered');
    expect(detail.body.attempt_count).toBe(3);
    expect(detail.body.attempts).toEqual([
      {
        attempted_at: ISO,
        url: hook.url,
        status_code: 500,
        duration_ms: expect.any(Number),
        success: false,
        error: 'HTTP 500',
        response_excerpt: 'boom 0',
      },
      {
        attempted_at: ISO,
        url: hook.url,
        status_code: 500,
        duration_ms: expect.any(Number),
        success: false,
        error: 'HTTP 500',
        response_excerpt: 'boom 1',
      },
      {
        attempted_at: ISO,
        url: hook.url,
        status_code: 204,
        duration_ms: expect.any(Number),
        success: true,
        error: null,
        response_excerpt: null,
      },
    ]);
    await waitForNoDeliveryJobs(t, [delivery.id]);
    expect(hook.received).toHaveLength(3);
  });

  it('caps the recorded response excerpt at 1 KiB', async () => {
    const hook = await receivers.start(() => ({ status: 200, body: 'x'.repeat(5000) }));
    const { apiKey, campaign } = await setup(hook.url);
    await record(event(campaign));
    const [delivery] = await waitForStatus(apiKey, campaign.id, 'delivered');
    const detail = await t
      .http()
      .get(`/api/v1/webhook-deliveries/${delivery.id}`)
      .set('X-API-Key', apiKey);
    expect(detail.body.attempts[0].response_excerpt).toBe('x'.repeat(1024));
  });

  it('marks a delivery failed once a receiver that is down has exhausted the schedule', async () => {
    const url = await WebhookReceiver.deadUrl();
    const { apiKey, campaign } = await setup(url);
    await record(event(campaign));
    const [delivery] = await waitForStatus(apiKey, campaign.id, 'failed');
    const detail = await t
      .http()
      .get(`/api/v1/webhook-deliveries/${delivery.id}`)
      .set('X-API-Key', apiKey);
    const connectionRefused = `connect ECONNREFUSED ${new URL(url).host}`;
    const refused = {
      attempted_at: ISO,
      url,
      status_code: null,
      duration_ms: expect.any(Number),
      success: false,
      error: connectionRefused,
      response_excerpt: null,
    };
    expect(detail.body).toEqual({
      ...delivery,
      status: 'failed',
      attempt_count: 3,
      next_attempt_at: null,
      last_status_code: null,
      last_error: connectionRefused,
      attempts: [refused, refused, refused],
    });
    const failedOnly = await deliveries(apiKey, campaign.id, '?status=failed');
    expect(failedOnly.body.deliveries.map((d: any) => d.id)).toEqual([delivery.id]);
    const deliveredOnly = await deliveries(apiKey, campaign.id, '?status=delivered');
    expect(deliveredOnly.body).toEqual({ deliveries: [], page_count: 0, next_page: null });
  });

  describe('rerun of failed deliveries', () => {
    const T1 = '2026-01-10T10:00:00.000Z';
    const T2 = '2026-01-10T12:00:00.000Z';
    const T3 = '2026-01-11T00:00:00.000Z';

    /** Three failed deliveries whose events happened at T1, T2 and T3, and one that is delivered. */
    async function failedAt(times: string[]) {
      const dead = await WebhookReceiver.deadUrl();
      const org = await setup(dead);
      await record(...times.map(() => event(org.campaign)));
      const failed = await waitForStatus(org.apiKey, org.campaign.id, 'failed', times.length);
      // Arrange the event times (the outbox stamps them with the clock at recording).
      for (const [i, d] of failed.entries()) {
        await t.sql('UPDATE webhook_events SET created_at = $2 WHERE id = $1', [
          d.event_id,
          times[i],
        ]);
        await t.sql('UPDATE webhook_deliveries SET event_created_at = $2 WHERE id = $1', [
          d.id,
          times[i],
        ]);
      }
      return { ...org, failed };
    }

    const rerun = (apiKey: string, campaignId: string, body: unknown) =>
      t
        .http()
        .post(`/api/v1/campaigns/${campaignId}/webhooks/rerun-failed`)
        .set('X-API-Key', apiKey)
        .send(body as object);

    it('re-queues exactly the failed deliveries in the window (bounds inclusive) and delivers them with the same webhook-id', async () => {
      const { apiKey, campaign, failed } = await failedAt([T1, T2, T3]);
      const hook = await receivers.start();
      const patched = await t
        .http()
        .patch(`/api/v1/campaigns/${campaign.id}`)
        .set('X-API-Key', apiKey)
        .send({ webhook_url: hook.url });
      expect(patched.status).toBe(200);

      const res = await rerun(apiKey, campaign.id, { from_date: T1, to_date: T2 });
      expect(res.status).toBe(202);
      expect(res.body).toEqual({ requeued: 2 });
      // A second rerun right away finds them no longer failed: nothing is sent twice.
      const again = await rerun(apiKey, campaign.id, { from_date: T1, to_date: T2 });
      expect(again.body).toEqual({ requeued: 0 });

      const requests = await hook.waitForRequests(2);
      expect(requests.map((r) => r.headers['webhook-id']).sort()).toEqual(
        [failed[0].event_id, failed[1].event_id].sort(),
      );
      await waitFor(
        () => deliveries(apiKey, campaign.id, '?status=delivered'),
        (r) => r.body.deliveries.length === 2,
      );
      const still = await deliveries(apiKey, campaign.id, '?status=failed');
      expect(still.body.deliveries.map((d: any) => d.id)).toEqual([failed[2].id]);
      const detail = await t
        .http()
        .get(`/api/v1/webhook-deliveries/${failed[0].id}`)
        .set('X-API-Key', apiKey);
      expect(detail.body.attempt_count).toBe(4);
      expect(detail.body.attempts.map((a: any) => a.success)).toEqual([false, false, false, true]);

      await waitForNoDeliveryJobs(t, [failed[0].id, failed[1].id]);
      expect(hook.received).toHaveLength(2);
      expect((await rerun(apiKey, campaign.id, { from_date: T1, to_date: T2 })).body).toEqual({
        requeued: 0,
      });
    });

    it('takes a date-only to_date as the whole day and excludes events just outside the window', async () => {
      const { apiKey, campaign } = await failedAt([T1, T2, T3]);
      const before = await rerun(apiKey, campaign.id, {
        from_date: '2026-01-10T10:00:00.001Z',
        to_date: '2026-01-10T11:59:59.999Z',
      });
      expect(before.body).toEqual({ requeued: 0 });
      const day = await rerun(apiKey, campaign.id, {
        from_date: '2026-01-10',
        to_date: '2026-01-10',
      });
      expect(day.status).toBe(202);
      expect(day.body).toEqual({ requeued: 2 });
      const exact = await rerun(apiKey, campaign.id, { from_date: T3, to_date: T3 });
      expect(exact.body).toEqual({ requeued: 1 });
    });

    it('answers 422 for missing, malformed or reversed dates', async () => {
      const { apiKey, campaign } = await setup(null);
      const missing = await rerun(apiKey, campaign.id, {});
      expect(missing.status).toBe(422);
      expect(missing.body).toEqual({
        detail: [
          { type: 'missing', loc: ['body', 'from_date'], msg: 'Field required', input: {} },
          { type: 'missing', loc: ['body', 'to_date'], msg: 'Field required', input: {} },
        ],
      });
      const malformed = await rerun(apiKey, campaign.id, {
        from_date: 'last-week!',
        to_date: '2026-13-01',
      });
      expect(malformed.status).toBe(422);
      expect(malformed.body).toEqual({
        detail: [
          {
            type: 'datetime_from_date_parsing',
            loc: ['body', 'from_date'],
            msg: 'Input should be a valid datetime or date, invalid character in year',
            input: 'last-week!',
            ctx: { error: 'invalid character in year' },
          },
          {
            type: 'datetime_from_date_parsing',
            loc: ['body', 'to_date'],
            msg: 'Input should be a valid datetime or date, month value is outside expected range of 1-12',
            input: '2026-13-01',
            ctx: { error: 'month value is outside expected range of 1-12' },
          },
        ],
      });
      const reversed = await rerun(apiKey, campaign.id, {
        from_date: '2026-01-11',
        to_date: '2026-01-10T23:59:59Z',
      });
      expect(reversed.status).toBe(422);
      expect(reversed.body).toEqual({
        detail: [
          {
            type: 'value_error',
            loc: ['body', 'to_date'],
            msg: 'Value error, from_date must be before or equal to to_date',
            input: '2026-01-10T23:59:59Z',
            ctx: { error: {} },
          },
        ],
      });
    });
  });

  it('pages the delivery list and validates its query', async () => {
    const hook = await receivers.start();
    const { apiKey, campaign } = await setup(hook.url);
    await record(event(campaign), event(campaign), event(campaign));
    await waitForStatus(apiKey, campaign.id, 'delivered', 3);
    const all = (await deliveries(apiKey, campaign.id)).body.deliveries.map((d: any) => d.id);
    const page0 = await deliveries(apiKey, campaign.id, '?limit=2');
    expect(page0.body.deliveries.map((d: any) => d.id)).toEqual(all.slice(0, 2));
    expect(page0.body.page_count).toBe(2);
    expect(page0.body.next_page).toBe(1);
    const page1 = await deliveries(apiKey, campaign.id, '?limit=2&page=1');
    expect(page1.body.deliveries.map((d: any) => d.id)).toEqual(all.slice(2));
    expect(page1.body.next_page).toBeNull();

    const bad = await deliveries(apiKey, campaign.id, '?status=lost');
    expect(bad.status).toBe(422);
    expect(bad.body).toEqual({
      detail: [
        {
          type: 'enum',
          loc: ['query', 'status'],
          msg: "Input should be 'pending', 'sending', 'delivered' or 'failed'",
          input: 'lost',
          ctx: { expected: "'pending', 'sending', 'delivered' or 'failed'" },
        },
      ],
    });
  });

  it('rotates the secret: the next delivery is signed with the new one', async () => {
    const hook = await receivers.start();
    const { apiKey, campaign } = await setup(hook.url);
    const res = await t
      .http()
      .post(`/api/v1/campaigns/${campaign.id}/webhook-secret/rotate`)
      .set('X-API-Key', apiKey);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ webhook_secret: expect.stringMatching(/^whsec_/) });
    expect(res.body.webhook_secret).not.toBe(campaign.webhook_secret);
    await record(event(campaign));
    const [request] = await hook.waitForRequests(1);
    const headers = request.headers as Record<string, string>;
    expect(() => new Webhook(res.body.webhook_secret).verify(request.body, headers)).not.toThrow();
    expect(() => new Webhook(campaign.webhook_secret).verify(request.body, headers)).toThrow();
  });

  it('documents every webhook route, parameter, default and error in /openapi.json', async () => {
    const doc = (await t.http().get('/openapi.json')).body;
    const rerun = doc.paths['/api/v1/campaigns/{campaign_id}/webhooks/rerun-failed'].post;
    expect(rerun.operationId).toBe(
      'rerun_failed_webhooks_api_v1_campaigns__campaign_id__webhooks_rerun_failed_post',
    );
    expect(Object.keys(rerun.responses).sort()).toEqual(['202', '401', '403', '404', '422']);
    const bodyRef = rerun.requestBody.content['application/json'].schema.$ref.split('/').pop();
    expect(doc.components.schemas[bodyRef]).toMatchObject({
      required: ['from_date', 'to_date'],
      properties: { from_date: { format: 'date-time' }, to_date: { format: 'date-time' } },
    });
    const list = doc.paths['/api/v1/campaigns/{campaign_id}/webhooks/deliveries'].get;
    const params = Object.fromEntries(list.parameters.map((p: any) => [p.name, p]));
    expect(params.page.schema).toMatchObject({ default: 0, minimum: 0 });
    expect(params.limit.schema).toMatchObject({ default: 100, minimum: 1, maximum: 1000 });
    expect(params.status.schema.enum).toEqual(['pending', 'sending', 'delivered', 'failed']);
    expect(doc.paths['/api/v1/webhook-deliveries/{delivery_id}'].get.operationId).toBe(
      'get_webhook_delivery_api_v1_webhook_deliveries__delivery_id__get',
    );
    expect(
      doc.paths['/api/v1/campaigns/{campaign_id}/webhook-secret/rotate'].post.responses['200'],
    ).toBeDefined();
  });

  it('answers 404 on every route for another organization, unknown and malformed ids', async () => {
    const hook = await receivers.start();
    const owner = await setup(hook.url);
    const other = await t.createOrganization();
    await record(event(owner.campaign));
    const [delivery] = await waitForStatus(owner.apiKey, owner.campaign.id, 'delivered');
    const body = { from_date: '2026-01-01', to_date: '2026-12-31' };

    for (const campaignId of [owner.campaign.id, randomUUID(), 'not-a-uuid']) {
      const list = await deliveries(other.apiKey, campaignId);
      expect([list.status, list.body]).toEqual([404, { detail: expect.any(String) }]);
      const rerunRes = await t
        .http()
        .post(`/api/v1/campaigns/${campaignId}/webhooks/rerun-failed`)
        .set('X-API-Key', other.apiKey)
        .send(body);
      expect([rerunRes.status, rerunRes.body]).toEqual([404, { detail: expect.any(String) }]);
      const rotate = await t
        .http()
        .post(`/api/v1/campaigns/${campaignId}/webhook-secret/rotate`)
        .set('X-API-Key', other.apiKey);
      expect([rotate.status, rotate.body]).toEqual([404, { detail: expect.any(String) }]);
    }
    for (const id of [delivery.id, randomUUID(), 'not-a-uuid']) {
      const res = await t
        .http()
        .get(`/api/v1/webhook-deliveries/${id}`)
        .set('X-API-Key', other.apiKey);
      expect([res.status, res.body]).toEqual([404, { detail: `Webhook delivery ${id} not found` }]);
    }
    // The owner's secret was not rotated by the other organization's attempt.
    const [row] = await t.sql('SELECT webhook_secret FROM campaigns WHERE id = $1', [
      owner.campaign.id,
    ]);
    expect(row.webhook_secret).toBe(owner.campaign.webhook_secret);
    const unauthenticated = await t.http().get(`/api/v1/webhook-deliveries/${delivery.id}`);
    expect(unauthenticated.status).toBe(401);
  });
});
