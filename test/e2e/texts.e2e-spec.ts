import { Webhook } from 'standardwebhooks';
import { zoneWhereClockReads } from '../support/clock-zones.js';
import { createTestApp, TestApp, waitFor } from '../support/test-app.js';
import { WebhookReceiver, WebhookReceivers } from '../support/webhook-receiver.js';

const ISO = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const TEMPLATE = 'Hi {{input_data.first_name}}, we tried to reach you. Call us at +15550001111.';

/**
 * Follow-up texts through the simulator (docs/calling.md, Texts): `sms_follow_up` on the campaign, the
 * `SMS Scheduled` status between a call and what follows it, messages as records, `message.status`,
 * and the calling rules (quiet hours, the do-not-call list) applied to texts.
 */
describe('follow-up texts (simulator)', () => {
  let t: TestApp;
  const receivers = new WebhookReceivers();

  beforeAll(async () => {
    // Calls last two seconds: long enough for a test to change the policy while one is in progress.
    t = await createTestApp({ env: { SIMULATED_CALL_SECONDS: '2' } });
  });
  afterAll(async () => {
    await receivers.closeAll();
    await t?.close();
  });

  async function setup(campaign: Record<string, unknown>) {
    const { organizationId, apiKey } = await t.createOrganization();
    const receiver = await receivers.start();
    const c = await t.createCampaign(apiKey, { webhook_url: receiver.url, ...campaign });
    return { organizationId, apiKey, campaign: c, receiver };
  }

  const get = (apiKey: string, url: string) => t.http().get(url).set('X-API-Key', apiKey);

  async function launch(apiKey: string, campaignId: string, target: Record<string, unknown>) {
    const [id] = await t.addTargets(apiKey, campaignId, { targets: [target], launch: true });
    return id;
  }

  /** The target's statuses, oldest first, as its timeline recorded them. */
  async function statuses(apiKey: string, targetId: string): Promise<string[]> {
    const res = await get(apiKey, `/api/v1/targets/${targetId}/events`).query({ limit: 100 });
    return (res.body.items as { kind: string; status: string | null }[])
      .filter((e) => ['status_changed', 'call_started', 'call_ended'].includes(e.kind))
      .map((e) => e.status!)
      .reverse();
  }

  function messageEvents(receiver: WebhookReceiver, secret: string) {
    return receiver.received
      .map((r) => new Webhook(secret).verify(r.body, r.headers as Record<string, string>))
      .filter((p) => String((p as { type: string }).type).startsWith('message.'));
  }

  it('a no-answer call is followed by a text: SMS Scheduled, then the next attempt; the text is a record and a signed message.status', async () => {
    const { apiKey, campaign, receiver } = await setup({
      max_attempts: 2,
      retry_delay_minutes: 60,
      sms_follow_up: { on_categories: ['NO_RESPONSE', 'VOICEMAIL'], template: TEMPLATE },
    });
    expect(campaign.sms_follow_up).toEqual({
      provider_connection_id: null,
      on_categories: ['NO_RESPONSE', 'VOICEMAIL'],
      template: TEMPLATE,
      after: 'each_attempt',
    });
    // Last four digits 0000: the simulator does not answer.
    const targetId = await launch(apiKey, campaign.id, {
      phone_number: '+15551230000',
      input_data: { first_name: 'Ada' },
    });
    const target = await waitFor(
      async () => (await get(apiKey, `/api/v1/targets/${targetId}`)).body,
      (b) => b.status === 'Scheduled' && b.call_log_ids?.length === 1,
      20_000,
    );
    expect(target.category).toBe('NO_RESPONSE');
    const list = await get(apiKey, `/api/v1/targets/${targetId}/messages`);
    const [callLog] = await t.sql<{ id: string }>(`SELECT id FROM call_logs WHERE target_id = $1`, [
      targetId,
    ]);
    const message = {
      id: expect.stringMatching(UUID),
      campaign_id: campaign.id,
      target_id: targetId,
      call_log_id: Number(callLog.id),
      direction: 'outbound',
      to: '+15551230000',
      from: '+15550000000',
      body: 'Hi Ada, we tried to reach you. Call us at +15550001111.',
      status: 'delivered',
      provider: 'simulated',
      provider_connection_id: null,
      provider_message_id: expect.stringMatching(/^SM[0-9a-f]{32}$/),
      error_code: null,
      error_message: null,
      keyword: null,
      send_after: null,
      created_at: expect.stringMatching(ISO),
      updated_at: expect.stringMatching(ISO),
      sent_at: expect.stringMatching(ISO),
      settled_at: expect.stringMatching(ISO),
    };
    expect([list.status, list.body]).toEqual([200, { messages: [message] }]);
    const one = await get(apiKey, `/api/v1/messages/${list.body.messages[0].id}`);
    expect([one.status, one.body]).toEqual([200, list.body.messages[0]]);
    // A key limited to the campaign reads its texts; one limited to another campaign finds none.
    const other = await t.createCampaign(apiKey, { name: 'Other' });
    const limitedTo = async (campaignId: string) =>
      (
        await t
          .http()
          .post('/api/v1/api-keys')
          .set('X-API-Key', apiKey)
          .send({ name: 'limited', role: 'viewer', campaign_ids: [campaignId] })
      ).body.key as string;
    const [inside, outside] = [await limitedTo(campaign.id), await limitedTo(other.id)];
    expect((await get(inside, `/api/v1/targets/${targetId}/messages`)).body).toEqual(list.body);
    expect((await get(inside, `/api/v1/messages/${list.body.messages[0].id}`)).status).toBe(200);
    const hiddenList = await get(outside, `/api/v1/targets/${targetId}/messages`);
    expect([hiddenList.status, hiddenList.body]).toEqual([
      404,
      { detail: `Target ${targetId} not found` },
    ]);
    const hiddenOne = await get(outside, `/api/v1/messages/${list.body.messages[0].id}`);
    expect([hiddenOne.status, hiddenOne.body]).toEqual([
      404,
      { detail: `Message ${list.body.messages[0].id} not found` },
    ]);
    // The retry is due at the call's retry time, not pushed back by the text.
    expect(new Date(target.scheduled_time).getTime()).toBeGreaterThan(Date.now() + 55 * 60_000);
    expect(await statuses(apiKey, targetId)).toEqual(['In Progress', 'SMS Scheduled', 'Scheduled']);
    await waitFor(
      async () => messageEvents(receiver, campaign.webhook_secret),
      (e) => e.length === 1,
      20_000,
    );
    expect(messageEvents(receiver, campaign.webhook_secret)).toEqual([
      {
        type: 'message.status',
        campaign_id: campaign.id,
        target_id: targetId,
        message_id: list.body.messages[0].id,
        direction: 'outbound',
        status: 'delivered',
        error_code: null,
        at: expect.stringMatching(ISO),
      },
    ]);
  });

  it('after: last_attempt texts only when no retry follows; the target then ends as the call decided; an undelivered text says so', async () => {
    const { apiKey, campaign } = await setup({
      max_attempts: 2,
      retry_delay_minutes: 0,
      sms_follow_up: { on_categories: ['NO_RESPONSE'], template: 'Call us', after: 'last_attempt' },
    });
    // 90 before the last four digits: the simulator reports the text undelivered (30003).
    const targetId = await launch(apiKey, campaign.id, { phone_number: '+15555900000' });
    const target = await waitFor(
      async () => (await get(apiKey, `/api/v1/targets/${targetId}`)).body,
      (b) => b.status === 'Finished',
      30_000,
    );
    expect([target.call_log_ids.length, target.category, target.resolution]).toEqual([
      2,
      'NO_RESPONSE',
      'unsuccessful',
    ]);
    const list = await get(apiKey, `/api/v1/targets/${targetId}/messages`);
    expect(
      list.body.messages.map((m: Record<string, unknown>) => [m.status, m.error_code, m.sent_at]),
    ).toEqual([['undelivered', '30003', expect.stringMatching(ISO)]]);
    expect(await statuses(apiKey, targetId)).toEqual([
      'In Progress',
      'Scheduled',
      'In Progress',
      'SMS Scheduled',
      'Finished',
    ]);
  });

  it('a text to a number on the do-not-call list is never sent; the target goes on', async () => {
    const { apiKey, campaign, receiver } = await setup({
      max_attempts: 1,
      sms_follow_up: { on_categories: ['DNC_REQUESTED'], template: 'Sorry to bother you' },
    });
    // 0005: the person asks not to be called again; the call lists the number.
    const targetId = await launch(apiKey, campaign.id, { phone_number: '+15551230005' });
    await waitFor(
      async () => (await get(apiKey, `/api/v1/targets/${targetId}`)).body.status,
      (s) => s === 'Finished',
      20_000,
    );
    const list = await get(apiKey, `/api/v1/targets/${targetId}/messages`);
    expect(list.body.messages).toEqual([
      expect.objectContaining({
        status: 'failed',
        provider: null,
        provider_message_id: null,
        sent_at: null,
        error_code: 'do_not_call',
        error_message: expect.stringMatching(/^on the do-not-call list since /),
      }),
    ]);
    await waitFor(
      async () => messageEvents(receiver, campaign.webhook_secret),
      (e) => e.length === 1,
      20_000,
    );
    expect(messageEvents(receiver, campaign.webhook_secret)).toEqual([
      expect.objectContaining({
        type: 'message.status',
        status: 'failed',
        error_code: 'do_not_call',
      }),
    ]);
  });

  it('a STOP reply lists the number at once: a later call in another campaign is never placed; message.received', async () => {
    const { organizationId, apiKey, campaign, receiver } = await setup({
      max_attempts: 1,
      sms_follow_up: { on_categories: ['NO_RESPONSE'], template: 'We missed you' },
    });
    // 0000: no answer; 92 before it: the simulated recipient replies STOP to the text.
    const targetId = await launch(apiKey, campaign.id, { phone_number: '+15555920000' });
    const messages = await waitFor(
      async () => (await get(apiKey, `/api/v1/targets/${targetId}/messages`)).body.messages,
      (m: any[]) => m.length === 2,
      20_000,
    );
    expect(messages[1]).toEqual({
      id: expect.stringMatching(UUID),
      campaign_id: campaign.id,
      target_id: targetId,
      call_log_id: null,
      direction: 'inbound',
      to: '+15550000000',
      from: '+15555920000',
      body: 'STOP',
      status: 'received',
      provider: 'simulated',
      provider_connection_id: null,
      provider_message_id: `${messages[0].provider_message_id}-reply`,
      error_code: null,
      error_message: null,
      keyword: 'opt_out',
      send_after: null,
      created_at: expect.stringMatching(ISO),
      updated_at: expect.stringMatching(ISO),
      sent_at: null,
      settled_at: expect.stringMatching(ISO),
    });
    const list = await get(apiKey, '/api/v1/compliance/do-not-call');
    expect(list.body).toEqual({
      phone_numbers: [
        {
          phone_number: '+15555920000',
          reason: 'Replied to a text to opt out',
          source: {
            type: 'sms',
            message_id: messages[1].id,
            campaign_id: campaign.id,
            target_id: targetId,
          },
          created_at: expect.stringMatching(ISO),
          removed: null,
        },
      ],
      total: 1,
    });
    // Another campaign of the organization never dials the number.
    const other = await t.createCampaign(apiKey, {});
    const laterId = await launch(apiKey, other.id, { phone_number: '+1 555 592 0000' });
    const later = await waitFor(
      async () => (await get(apiKey, `/api/v1/targets/${laterId}`)).body,
      (b) => b.status === 'Finished',
      20_000,
    );
    expect([later.category, later.outcome, later.call_log_ids]).toEqual([
      'BLACKLISTED_PHONE',
      'Phone number is on the do-not-call list',
      null,
    ]);
    await waitFor(
      async () => messageEvents(receiver, campaign.webhook_secret),
      (e) => e.length === 2,
      20_000,
    );
    expect(messageEvents(receiver, campaign.webhook_secret)).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ type: 'message.status', status: 'delivered' }),
        {
          type: 'message.received',
          campaign_id: campaign.id,
          target_id: targetId,
          message_id: messages[1].id,
          direction: 'inbound',
          status: 'received',
          error_code: null,
          at: expect.stringMatching(ISO),
        },
      ]),
    );
    expect(
      await t.sql(`SELECT count(*)::int AS n FROM call_logs WHERE organization_id = $1`, [
        organizationId,
      ]),
    ).toEqual([{ n: 1 }]);
  });

  it("a text is held by quiet hours in the recipient's zone: the target waits SMS Scheduled", async () => {
    const { apiKey, campaign } = await setup({
      max_attempts: 3,
      sms_follow_up: { on_categories: ['VOICEMAIL'], template: 'We left you a message' },
    });
    // The recipient's afternoon when the call is placed; the policy changes while it is in progress.
    const targetId = await launch(apiKey, campaign.id, {
      phone_number: '+15551230001',
      time_zone: zoneWhereClockReads(3),
    });
    await waitFor(
      async () => (await get(apiKey, `/api/v1/targets/${targetId}`)).body.status,
      (s) => s === 'In Progress',
      20_000,
    );
    const policy = await t
      .http()
      .put('/api/v1/compliance/policy')
      .set('X-API-Key', apiKey)
      .send({
        quiet_hours: { start: '08:00', end: '21:00' },
        state_rules: false,
        max_calls_per_number: { per_24h: null, per_7d: null },
        restricted_dates: [],
        default_time_zone: 'America/New_York',
      });
    expect(policy.status).toBe(200);
    const [held] = await waitFor(
      async () => (await get(apiKey, `/api/v1/targets/${targetId}/messages`)).body.messages,
      (m: { send_after: string | null }[]) => m.length === 1 && m[0].send_after !== null,
      20_000,
    );
    expect(held).toEqual(
      expect.objectContaining({ status: 'queued', sent_at: null, provider: null }),
    );
    // Held until 08:00 in the recipient's zone, whose clock read 03:xx.
    const wait = new Date(held.send_after!).getTime() - Date.now();
    expect(wait).toBeGreaterThan(3 * 3600_000);
    expect(wait).toBeLessThan(6 * 3600_000);
    const target = (await get(apiKey, `/api/v1/targets/${targetId}`)).body;
    expect([target.status, target.waiting_reason]).toEqual(['SMS Scheduled', 'SMS scheduled']);
  });

  it('422s at the field for a bad sms_follow_up; another organization’s connection is unknown', async () => {
    const { apiKey } = await t.createOrganization();
    const bad = await t
      .http()
      .post('/api/v1/campaigns')
      .set('X-API-Key', apiKey)
      .send({
        name: 'c',
        type: 'patient',
        sms_follow_up: { on_categories: ['NOPE'], after: 'sometimes' },
      });
    expect(bad.status).toBe(422);
    expect(bad.body.detail.map((d: { loc: unknown[]; type: string }) => [d.loc, d.type])).toEqual([
      [['body', 'sms_follow_up', 'on_categories', 0], 'enum'],
      [['body', 'sms_follow_up', 'template'], 'missing'],
      [['body', 'sms_follow_up', 'after'], 'enum'],
    ]);
    const unknown = await t
      .http()
      .post('/api/v1/campaigns')
      .set('X-API-Key', apiKey)
      .send({
        name: 'c',
        type: 'patient',
        sms_follow_up: {
          provider_connection_id: '00000000-0000-4000-8000-000000000001',
          on_categories: ['VOICEMAIL'],
          template: 'x',
        },
      });
    expect(unknown.status).toBe(422);
    expect(unknown.body.detail[0].loc).toEqual(['body', 'sms_follow_up', 'provider_connection_id']);
    const c = await t.createCampaign(apiKey, {
      sms_follow_up: { on_categories: ['VOICEMAIL'], template: 'x' },
    });
    const off = await t
      .http()
      .patch(`/api/v1/campaigns/${c.id}`)
      .set('X-API-Key', apiKey)
      .send({ sms_follow_up: null });
    expect([off.status, off.body.sms_follow_up]).toEqual([200, null]);
    const missing = await get(apiKey, `/api/v1/messages/00000000-0000-4000-8000-000000000001`);
    expect([missing.status, missing.body]).toEqual([
      404,
      { detail: 'Message 00000000-0000-4000-8000-000000000001 not found' },
    ]);
    const noTarget = await get(apiKey, `/api/v1/targets/not-a-target/messages`);
    expect(noTarget.status).toBe(404);
  });
});
