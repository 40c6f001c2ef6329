import { TwilioEmulator } from '../support/emulators/twilio-emulator.js';
import { ProviderApp, startProviderApp } from '../support/provider-app.js';
import { waitFor } from '../support/test-app.js';

const FROM = '+15550009999';
const HELP = 'Acme Clinic reminders. Reply STOP to opt out. Call +15550001111.';

/**
 * Texts through a Twilio connection end to end: the follow-up text goes through the emulator's
 * Messages resource, the emulator posts signed status callbacks and incoming messages to the
 * connection's messages route over HTTP (docs/providers.md, Twilio; docs/calling.md, Texts).
 */
describe('Twilio Messaging', () => {
  let app: ProviderApp;
  const account = { sid: 'AC' + 'c3'.repeat(16), token: 'twilio-auth-token-of-initech' };
  let twilio: TwilioEmulator;
  let apiKey: string;
  let connectionId: string;
  let messagesUrl: string;

  beforeAll(async () => {
    twilio = await new TwilioEmulator(account.sid, account.token).start();
    app = await startProviderApp();
    ({ apiKey } = await app.createOrganization());
    connectionId = await app.connect(apiKey, {
      type: 'twilio',
      credentials: { account_sid: account.sid, auth_token: account.token },
      settings: {
        api_base_url: twilio.baseUrl,
        from_number: FROM,
        twiml_template: '<Response><Say>Hello</Say></Response>',
        help_message: HELP,
      },
      is_default: true,
    });
    messagesUrl = `${app.baseUrl}/api/v1/telephony/${connectionId}/messages`;
  });
  afterAll(async () => {
    await app?.close();
    await twilio?.stop();
  });

  const messagesOf = async (targetId: string) =>
    (await app.http().get(`/api/v1/targets/${targetId}/messages`).set('X-API-Key', apiKey)).body
      .messages as Record<string, any>[];

  /** A no-answer call followed by its text through Twilio; the text's emulated message. */
  async function textedTarget() {
    const call = await app.placeCall(apiKey, {
      sms_follow_up: {
        on_categories: ['NO_RESPONSE'],
        template: 'Hi {{input_data.first_name}}, we could not reach you.',
      },
    });
    await twilio.finish(call.providerCallId, { status: 'no-answer' });
    const [text] = await waitFor(
      () => messagesOf(call.targetId),
      (m) => m.length === 1 && m[0].status === 'sent',
    );
    return { call, text, to: text.to as string };
  }

  it('sends the follow-up text through the Messages resource; status callbacks out of order never move it back', async () => {
    const { call, text } = await textedTarget();
    const sent = twilio.messages.get(text.provider_message_id)!;
    expect(Object.fromEntries(sent.params)).toEqual({
      To: text.to,
      From: FROM,
      Body: 'Hi Ada, we could not reach you.',
      StatusCallback: messagesUrl,
    });
    expect(text).toMatchObject({
      provider: 'twilio',
      provider_connection_id: connectionId,
      from: FROM,
      error_code: null,
      settled_at: null,
    });
    // The text is sent: the target goes on as the call decided (its last attempt: Finished).
    expect(await app.target(apiKey, call.targetId)).toMatchObject({
      status: 'Finished',
      category: 'NO_RESPONSE',
    });

    const delivered = await twilio.postMessageStatus(text.provider_message_id, 'delivered');
    const late = await twilio.postMessageStatus(text.provider_message_id, 'sent');
    expect([delivered.status, late.status]).toEqual([200, 200]);
    const [after] = await messagesOf(call.targetId);
    expect(after).toMatchObject({ status: 'delivered', settled_at: expect.any(String) });
    const failedLate = await twilio.postMessageStatus(text.provider_message_id, 'undelivered', {
      errorCode: '30003',
    });
    expect(failedLate.status).toBe(200);
    expect((await messagesOf(call.targetId))[0]).toMatchObject({
      status: 'delivered',
      error_code: null,
    });
  });

  it('maps an undelivered report and its error code', async () => {
    const { call, text } = await textedTarget();
    await twilio.postMessageStatus(text.provider_message_id, 'undelivered', { errorCode: '30006' });
    expect((await messagesOf(call.targetId))[0]).toMatchObject({
      status: 'undelivered',
      error_code: '30006',
      error_message: 'Landline or unreachable carrier',
    });
  });

  it('refuses forged and unsigned callbacks and changes nothing', async () => {
    const { call, text } = await textedTarget();
    const forged = await twilio.postMessageStatus(text.provider_message_id, 'delivered', {
      authToken: 'not-the-auth-token',
    });
    const unsigned = await twilio.postMessageStatus(text.provider_message_id, 'failed', {
      signed: false,
    });
    const forgedStop = await twilio.postIncomingMessage(
      messagesUrl,
      { from: text.to, to: FROM, body: 'STOP' },
      { authToken: 'not-the-auth-token' },
    );
    expect([forged.status, unsigned.status, forgedStop.status]).toEqual([401, 401, 401]);
    expect(await messagesOf(call.targetId)).toEqual([text]);
    const dnc = await app
      .http()
      .get('/api/v1/compliance/do-not-call')
      .set('X-API-Key', apiKey)
      .query({ phone_number: text.to });
    expect(dnc.body).toEqual({ phone_numbers: [], total: 0 });
  });

  it('HELP is answered with the help message, START recorded; STOP lists the number at once and a replay changes nothing', async () => {
    const { call, to } = await textedTarget();
    const help = await twilio.postIncomingMessage(messagesUrl, {
      from: to,
      to: FROM,
      body: 'help',
    });
    expect(help.status).toBe(200);
    const withAnswer = await waitFor(
      () => messagesOf(call.targetId),
      (m) => m.length === 3 && m[2].status === 'sent',
    );
    expect(withAnswer.map((m) => [m.direction, m.body, m.keyword, m.status])).toEqual([
      ['outbound', 'Hi Ada, we could not reach you.', null, 'sent'],
      ['inbound', 'help', 'help', 'received'],
      ['outbound', HELP, null, 'sent'],
    ]);
    expect(
      Object.fromEntries(twilio.messages.get(withAnswer[2].provider_message_id)!.params),
    ).toEqual({ To: to, From: FROM, Body: HELP, StatusCallback: messagesUrl });

    const start = await twilio.postIncomingMessage(messagesUrl, {
      from: to,
      to: FROM,
      body: 'START',
    });
    const stop = await twilio.postIncomingMessage(messagesUrl, {
      from: to,
      to: FROM,
      body: 'Stop',
    });
    const replay = await twilio.postIncomingMessage(messagesUrl, {
      from: to,
      to: FROM,
      body: 'Stop',
      messageSid: stop.messageSid,
    });
    expect([start.status, stop.status, replay.status]).toEqual([200, 200, 200]);
    const all = await messagesOf(call.targetId);
    expect(
      all.slice(3).map((m) => [m.direction, m.body, m.keyword, m.provider_message_id]),
    ).toEqual([
      ['inbound', 'START', 'opt_in', start.messageSid],
      ['inbound', 'Stop', 'opt_out', stop.messageSid],
    ]);
    const dnc = await app
      .http()
      .get('/api/v1/compliance/do-not-call')
      .set('X-API-Key', apiKey)
      .query({ phone_number: to });
    expect(dnc.body.phone_numbers).toEqual([
      expect.objectContaining({
        phone_number: to,
        source: {
          type: 'sms',
          message_id: all[4].id,
          campaign_id: call.campaignId,
          target_id: call.targetId,
        },
      }),
    ]);
  });

  it('a post for an unknown connection is 404', async () => {
    const res = await app
      .http()
      .post(`/api/v1/telephony/00000000-0000-4000-8000-000000000001/messages`)
      .type('form')
      .send('MessageSid=SM1&MessageStatus=delivered');
    expect([res.status, res.body]).toEqual([
      404,
      { detail: "Unknown texting connection '00000000-0000-4000-8000-000000000001'" },
    ]);
  });
});
