import { createTestApp, TestApp, waitFor } from '../support/test-app.js';
import { recordCallFinished } from '../support/outbox-events.js';
import { WebhookReceiver } from '../support/webhook-receiver.js';

/** WEBHOOK_ALLOW_PRIVATE=false: what production runs with. */
describe('webhook SSRF guard', () => {
  let t: TestApp;
  let hook: WebhookReceiver;

  beforeAll(async () => {
    t = await createTestApp({ env: { WEBHOOK_ALLOW_PRIVATE: 'false' } });
    hook = await WebhookReceiver.start();
  });
  afterAll(async () => {
    await hook.close();
    await t.close();
  });

  async function deliverTo(url: string, rawUrl?: string) {
    const { apiKey } = await t.createOrganization();
    const campaign = await t.createCampaign(apiKey, { webhook_url: url });
    if (rawUrl)
      await t.sql('UPDATE campaigns SET webhook_url = $2 WHERE id = $1', [campaign.id, rawUrl]);
    await recordCallFinished(t, campaign, {
      callLogId: null,
      resolution: 'unsuccessful',
      category: 'BLACKLISTED_PHONE',
      subcategory: 'not_retrieved',
    });
    const list = await waitFor(
      () =>
        t
          .http()
          .get(`/api/v1/campaigns/${campaign.id}/webhooks/deliveries`)
          .set('X-API-Key', apiKey),
      (r) => r.body.deliveries?.[0]?.status === 'failed',
    );
    const detail = await t
      .http()
      .get(`/api/v1/webhook-deliveries/${list.body.deliveries[0].id}`)
      .set('X-API-Key', apiKey);
    return detail.body;
  }

  const refusal = (url: string, error: string) => ({
    attempted_at: expect.any(String),
    url,
    status_code: null,
    duration_ms: expect.any(Number),
    success: false,
    error,
    response_excerpt: null,
  });

  it.each([
    ['a loopback', () => hook.url, '127.0.0.1 resolves to 127.0.0.1, a loopback address'],
    ['an IPv6 loopback', () => 'http://[::1]:9/hook', '::1 resolves to ::1, a loopback address'],
    [
      'the cloud metadata',
      () => 'http://169.254.169.254/latest/meta-data',
      '169.254.169.254 resolves to 169.254.169.254, a cloud metadata address',
    ],
    [
      'a private',
      () => 'http://10.0.0.7:8080/hook',
      '10.0.0.7 resolves to 10.0.0.7, a private address',
    ],
    [
      'a CGNAT',
      () => 'https://100.64.1.1/hook',
      '100.64.1.1 resolves to 100.64.1.1, a carrier-grade NAT address',
    ],
    [
      'an IPv4-mapped IPv6',
      () => 'http://[::ffff:127.0.0.1]:9/hook',
      '::ffff:7f00:1 resolves to ::ffff:7f00:1, a loopback address',
    ],
  ])(
    'refuses %s destination at send time and records why, on every attempt',
    async (_name, url, reason) => {
      const delivery = await deliverTo(url());
      const expected = refusal(url(), `refused: ${reason} (WEBHOOK_ALLOW_PRIVATE is off)`);
      expect(delivery.status).toBe('failed');
      expect(delivery.last_error).toBe(expected.error);
      expect(delivery.attempts).toEqual([expected, expected, expected]);
    },
  );

  it('refuses a host name that resolves to a loopback address', async () => {
    const url = hook.url.replace('127.0.0.1', 'localhost');
    const delivery = await deliverTo(url);
    expect(delivery.attempts).toHaveLength(3);
    expect(delivery.attempts[0].error).toMatch(
      /^refused: localhost resolves to (127\.0\.0\.1|::1), a loopback address/,
    );
  });

  it("refuses a URL that is not http(s) (set behind the API's back)", async () => {
    const delivery = await deliverTo('https://example.invalid/hook', 'file:///etc/passwd');
    expect(delivery.attempts[0]).toEqual(
      refusal('file:///etc/passwd', 'refused: file: is not http or https'),
    );
  });

  it('never connected to the receiver', () => {
    expect(hook.received).toHaveLength(0);
  });
});
