import { createTestApp, TestApp, waitFor } from '../support/test-app.js';
import { recordCallFinished } from '../support/outbox-events.js';
import { unfinishedDeliveryJobs, waitForNoDeliveryJobs } from '../support/jobs.js';
import { WebhookReceiver } from '../support/webhook-receiver.js';
import { startWorkerProcess, WorkerProcess } from '../support/worker-process.js';

/**
 * At least once, never lost: a worker process SIGKILLed after it claimed a delivery and while the
 * receiver holds its request. The API app here runs no workers, so only child processes send. The
 * timeout is long enough that the kill always lands before the first worker would give up by itself.
 */
describe('webhook delivery survives a worker killed between claim and response', () => {
  let t: TestApp;
  let hook: WebhookReceiver;
  const workers: WorkerProcess[] = [];
  let releaseHeld: () => void = () => undefined;

  beforeAll(async () => {
    t = await createTestApp({
      env: { ROLE: 'api', WEBHOOK_TIMEOUT_MS: '8000', WEBHOOK_RECOVERY_SECONDS: '2' },
    });
    // The receiver holds the first request until the test lets it go.
    ({ receiver: hook, release: releaseHeld } = await WebhookReceiver.holdingFirst());
  });
  afterAll(async () => {
    releaseHeld();
    await Promise.all(workers.map((w) => w.stop()));
    await hook.close();
    await t.close();
  });

  it("sends the delivery again from another worker once the dead one's lease has expired", async () => {
    const { apiKey } = await t.createOrganization();
    const campaign = await t.createCampaign(apiKey, { webhook_url: hook.url });

    const first = startWorkerProcess(t);
    workers.push(first);
    await within(first.ready, 90_000, 'the first worker to start');

    await recordCallFinished(t, campaign);

    // The first worker claimed the delivery and its request is in flight: kill it there.
    const [held] = await hook.waitForRequests(1, 60_000);
    await first.kill();
    const [claimed] = await t.sql(
      'SELECT id, status, attempts FROM webhook_deliveries WHERE campaign_id = $1',
      [campaign.id],
    );
    expect(claimed).toEqual({ id: expect.any(String), status: 'sending', attempts: 1 });
    // The job the killed worker held stays active until pg-boss expires it; it can no longer send.
    const deadWorkersJobs = await unfinishedDeliveryJobs(t, [claimed.id]);

    const second = startWorkerProcess(t);
    workers.push(second);
    await within(second.ready, 90_000, 'the second worker to start');

    const requests = await hook.waitForRequests(2, 60_000);
    expect(requests[1].headers['webhook-id']).toBe(held.headers['webhook-id']);
    expect(requests[1].body).toBe(held.body);

    const list = await waitFor(
      () =>
        t
          .http()
          .get(`/api/v1/campaigns/${campaign.id}/webhooks/deliveries`)
          .set('X-API-Key', apiKey),
      (r) => r.body.deliveries?.[0]?.status === 'delivered',
      30_000,
    );
    const [delivery] = list.body.deliveries;
    expect(delivery.event_id).toBe(held.headers['webhook-id']);
    const detail = await t
      .http()
      .get(`/api/v1/webhook-deliveries/${delivery.id}`)
      .set('X-API-Key', apiKey);
    // Two claims, one recorded attempt: the killed worker never got to write its outcome.
    expect(detail.body.attempt_count).toBe(2);
    expect(detail.body.attempts).toEqual([
      expect.objectContaining({ status_code: 200, success: true, url: hook.url }),
    ]);
    // Delivered, and no live job can send it again.
    await waitForNoDeliveryJobs(t, [claimed.id], deadWorkersJobs);
    expect(hook.received).toHaveLength(2);
  }, 240_000);
});

/** Fails with a message naming what was awaited, instead of the test's bare timeout. */
function within<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`timed out after ${ms} ms waiting for ${what}`)), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}
