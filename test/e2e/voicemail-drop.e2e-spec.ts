import { TwilioEmulator } from '../support/emulators/twilio-emulator.js';
import { ProviderApp, startProviderApp } from '../support/provider-app.js';
import { waitFor } from '../support/test-app.js';

/**
 * Voicemail drop end to end: a Twilio connection with `DetectMessageEnd` and a `voicemail_message`
 * against the Twilio emulator (asynchronous AMD, the live call updated with the message, the
 * redirect after it), and the simulator's voicemail endings. Each subcategory on the target.
 */
describe('voicemail drop', () => {
  let app: ProviderApp;
  let twilio: TwilioEmulator;
  const account = { sid: 'AC' + 'c3'.repeat(16), token: 'twilio-auth-token-of-initech' };
  let apiKey: string;
  let connectionId: string;
  const MESSAGE = 'Hi {{input_data.first_name}}, this is your clinic. Please call us at 555-0100.';

  beforeAll(async () => {
    twilio = await new TwilioEmulator(account.sid, account.token).start();
    app = await startProviderApp();
    ({ apiKey } = await app.createOrganization());
    connectionId = await app.connect(apiKey, {
      type: 'twilio',
      credentials: { account_sid: account.sid, auth_token: account.token },
      settings: {
        api_base_url: twilio.baseUrl,
        twiml_template: '<Response><Say>Hello {{input_data.first_name}}</Say></Response>',
        machine_detection: 'DetectMessageEnd',
        voicemail_message: MESSAGE,
      },
      is_default: true,
    });
  });
  afterAll(async () => {
    await app?.close();
    await twilio?.stop();
  });

  const eventsUrl = (callLogId: number) =>
    `${app.baseUrl}/api/v1/telephony/${connectionId}/events?call_log_id=${callLogId}`;

  /** A placed Twilio call, answered (its status callback says in-progress). */
  async function answeredCall() {
    const call = await app.placeCall(apiKey);
    expect((await twilio.postStatus(call.providerCallId, 'in-progress')).status).toBe(200);
    return call;
  }

  it('the message travels filled in on the AMD callback URL, and plays at the beep: DELIVERED', async () => {
    const call = await answeredCall();
    const params = Object.fromEntries(twilio.calls.get(call.providerCallId)!.params);
    const amdUrl = new URL(eventsUrl(call.callLogId));
    amdUrl.searchParams.set(
      'voicemail_message',
      'Hi Ada, this is your clinic. Please call us at 555-0100.',
    );
    expect(params).toMatchObject({
      MachineDetection: 'DetectMessageEnd',
      AsyncAmd: 'true',
      AsyncAmdStatusCallback: amdUrl.toString(),
      StatusCallback: eventsUrl(call.callLogId),
    });

    expect((await twilio.postAmd(call.providerCallId, 'machine_end_beep')).status).toBe(200);
    const playedUrl = new URL(eventsUrl(call.callLogId));
    playedUrl.searchParams.set('voicemail_played', 'machine_end_beep');
    expect(twilio.calls.get(call.providerCallId)!.updates).toEqual([
      '<?xml version="1.0" encoding="UTF-8"?><Response>' +
        '<Say>Hi Ada, this is your clinic. Please call us at 555-0100.</Say>' +
        `<Redirect method="POST">${playedUrl.toString().replace(/&/g, '&amp;')}</Redirect>` +
        '</Response>',
    ]);

    // The message played to its end: Twilio follows the redirect and is told to hang up.
    const played = await twilio.playUpdatedTwiml(call.providerCallId);
    expect(played).toEqual({
      posted: expect.objectContaining({ status: 200 }),
      contentType: expect.stringMatching(/^text\/xml/),
      twiml: '<?xml version="1.0" encoding="UTF-8"?><Response><Hangup/></Response>',
    });
    // The completed callback after the hang-up repeats the end: a no-op.
    const posted = await twilio.finish(call.providerCallId, {
      status: 'completed',
      answeredBy: 'machine_end_beep',
      duration: 41,
    });
    expect(posted.map((p) => p.status)).toEqual([200, 200, 200, 200]);
    expect(await app.target(apiKey, call.targetId)).toMatchObject({
      status: 'Finished',
      resolution: 'unsuccessful',
      category: 'VOICEMAIL',
      subcategory: 'DELIVERED',
    });
    expect(await app.callLog(call.callLogId)).toMatchObject({
      outcome: 'VOICEMAIL',
      ended_reason: 'voicemail-message-played',
      subcategory: 'DELIVERED',
    });
  });

  it('the call ends before the message does: NOT_DELIVERED', async () => {
    const call = await answeredCall();
    await twilio.postAmd(call.providerCallId, 'machine_end_silence');
    expect(twilio.calls.get(call.providerCallId)!.updates).toHaveLength(1);
    await twilio.finish(call.providerCallId, {
      status: 'completed',
      answeredBy: 'machine_end_silence',
      duration: 12,
    });
    expect(await app.target(apiKey, call.targetId)).toMatchObject({
      status: 'Finished',
      category: 'VOICEMAIL',
      subcategory: 'NOT_DELIVERED',
    });
    expect(await app.callLog(call.callLogId)).toMatchObject({
      outcome: 'VOICEMAIL',
      ended_reason: 'completed:machine_end_silence',
      duration_seconds: 12,
    });
  });

  it('a greeting with no beep (a full mailbox, or none): the call hangs up, NO_MAILBOX', async () => {
    const call = await answeredCall();
    await twilio.postAmd(call.providerCallId, 'machine_end_other');
    expect(twilio.calls.get(call.providerCallId)!.updates).toEqual([
      '<?xml version="1.0" encoding="UTF-8"?><Response><Hangup/></Response>',
    ]);
    expect(await twilio.playUpdatedTwiml(call.providerCallId)).toBeNull();
    await twilio.finish(call.providerCallId, {
      status: 'completed',
      answeredBy: 'machine_end_other',
      duration: 9,
    });
    expect(await app.target(apiKey, call.targetId)).toMatchObject({
      status: 'Finished',
      category: 'VOICEMAIL',
      subcategory: 'NO_MAILBOX',
    });
  });

  it('a person answers: the call goes on as its TwiML says, and ends GOOD', async () => {
    const call = await answeredCall();
    expect((await twilio.postAmd(call.providerCallId, 'human')).status).toBe(200);
    expect(twilio.calls.get(call.providerCallId)!.updates).toEqual([]);
    await twilio.finish(call.providerCallId, { status: 'completed', answeredBy: 'human' });
    expect(await app.target(apiKey, call.targetId)).toMatchObject({
      status: 'Finished',
      category: 'GOOD',
      subcategory: null,
    });
  });

  it('a verdict that comes after the call ended changes nothing (Twilio refuses the update)', async () => {
    const call = await app.placeCall(apiKey);
    await twilio.finish(call.providerCallId, {
      status: 'completed',
      answeredBy: 'machine_end_beep',
      duration: 5,
    });
    expect((await twilio.postAmd(call.providerCallId, 'machine_end_beep')).status).toBe(200);
    expect(twilio.calls.get(call.providerCallId)!.updates).toEqual([]);
    expect(await app.target(apiKey, call.targetId)).toMatchObject({
      category: 'VOICEMAIL',
      subcategory: 'NOT_DELIVERED',
    });
  });

  it("a campaign's own message is left instead of the connection's, which stays the default", async () => {
    const own = 'Hello {{input_data.first_name}}, the flu shot clinic calling. Call 555-0199.';
    const call = await app.placeCall(apiKey, { voicemail_message: own });
    await twilio.postStatus(call.providerCallId, 'in-progress');
    const marked = new URL(eventsUrl(call.callLogId));
    marked.searchParams.set('voicemail_drop', '1');
    const amdUrl = new URL(marked);
    amdUrl.searchParams.set(
      'voicemail_message',
      'Hello Ada, the flu shot clinic calling. Call 555-0199.',
    );
    expect(Object.fromEntries(twilio.calls.get(call.providerCallId)!.params)).toMatchObject({
      AsyncAmdStatusCallback: amdUrl.toString(),
      StatusCallback: marked.toString(),
    });
    await twilio.postAmd(call.providerCallId, 'machine_end_beep');
    expect(twilio.calls.get(call.providerCallId)!.updates[0]).toContain(
      '<Say>Hello Ada, the flu shot clinic calling. Call 555-0199.</Say>',
    );
    await twilio.playUpdatedTwiml(call.providerCallId);
    expect(await app.target(apiKey, call.targetId)).toMatchObject({
      category: 'VOICEMAIL',
      subcategory: 'DELIVERED',
    });

    // A connection with no message of its own leaves the campaign's, and its report is a drop's.
    const bare = await app.connect(apiKey, {
      type: 'twilio',
      credentials: { account_sid: account.sid, auth_token: account.token },
      settings: {
        api_base_url: twilio.baseUrl,
        twiml_template: '<Response><Say>Hello</Say></Response>',
        machine_detection: 'DetectMessageEnd',
      },
    });
    const cut = await app.placeCall(apiKey, {
      voicemail_message: own,
      provider_connection_id: bare,
    });
    await twilio.postStatus(cut.providerCallId, 'in-progress');
    await twilio.postAmd(cut.providerCallId, 'machine_end_beep');
    expect(twilio.calls.get(cut.providerCallId)!.updates[0]).toContain(
      '<Say>Hello Ada, the flu shot clinic calling. Call 555-0199.</Say>',
    );
    // The callee's mailbox hangs up before the message ends: the call never reaches the redirect.
    await twilio.finish(cut.providerCallId, {
      status: 'completed',
      answeredBy: 'machine_end_silence',
      duration: 8,
    });
    expect(await app.target(apiKey, cut.targetId)).toMatchObject({
      category: 'VOICEMAIL',
      subcategory: 'NOT_DELIVERED',
    });
  });

  it('a forged redirect is refused and ends nothing', async () => {
    const call = await answeredCall();
    const url = new URL(eventsUrl(call.callLogId));
    url.searchParams.set('voicemail_played', 'machine_end_beep');
    const res = await app
      .http()
      .post(`${url.pathname}${url.search}`)
      .set('Content-Type', 'application/x-www-form-urlencoded')
      .set('X-Twilio-Signature', 'forged')
      .send(`CallSid=${call.providerCallId}&CallStatus=in-progress`);
    expect(res.status).toBe(401);
    expect(await app.target(apiKey, call.targetId)).toMatchObject({ status: 'In Progress' });
    await twilio.finish(call.providerCallId, { status: 'completed', answeredBy: 'human' });
  });

  it('voicemail_message is validated at the field, and needs DetectMessageEnd on Twilio', async () => {
    const post = (settings: Record<string, unknown>, type = 'twilio') =>
      app
        .http()
        .post('/api/v1/provider-connections')
        .set('X-API-Key', apiKey)
        .send({
          type,
          name: 'voicemail',
          credentials:
            type === 'twilio'
              ? { account_sid: account.sid, auth_token: account.token }
              : { api_key: 'retell-api-key-0123456789' },
          settings,
        });
    const twiml = { twiml_template: '<Response/>' };
    const enable = await post({ ...twiml, machine_detection: 'Enable', voicemail_message: 'Hi' });
    expect(enable.status).toBe(422);
    expect(enable.body).toEqual({
      detail: [
        {
          type: 'value_error',
          loc: ['body', 'settings'],
          msg: 'Value error, voicemail_message needs machine_detection DetectMessageEnd',
          input: { ...twiml, machine_detection: 'Enable', voicemail_message: 'Hi' },
          ctx: { error: {} },
        },
      ],
    });
    const empty = await post({ agent_id: 'agent_1', voicemail_message: '' }, 'retell');
    expect(empty.status).toBe(422);
    expect(empty.body).toEqual({
      detail: [
        {
          type: 'string_too_short',
          loc: ['body', 'settings', 'voicemail_message'],
          msg: 'String should have at least 1 character',
          input: '',
          ctx: { min_length: 1 },
        },
      ],
    });
    const notText = await post({ agent_id: 'agent_1', voicemail_message: 7 }, 'retell');
    expect(notText.status).toBe(422);
    expect(notText.body).toEqual({
      detail: [
        {
          type: 'string_type',
          loc: ['body', 'settings', 'voicemail_message'],
          msg: 'Input should be a valid string',
          input: 7,
        },
      ],
    });
    const tooLong = await post(
      { agent_id: 'agent_1', voicemail_message: 'x'.repeat(501) },
      'retell',
    );
    expect(tooLong.status).toBe(422);
    expect(tooLong.body.detail).toEqual([
      expect.objectContaining({
        type: 'string_too_long',
        loc: ['body', 'settings', 'voicemail_message'],
        ctx: { max_length: 500 },
      }),
    ]);
  });

  it('the simulator leaves its voicemails: 0001 DELIVERED, 0007 NOT_DELIVERED, 0008 NO_MAILBOX', async () => {
    const { apiKey: simKey } = await app.createOrganization();
    const campaign = await app.createCampaign(simKey, {
      max_attempts: 1,
      caller_id: '+15550009999',
    });
    const phones = ['+15550170001', '+15550170007', '+15550170008'];
    const res = await app
      .http()
      .post(`/api/v1/campaigns/${campaign.id}/targets`)
      .set('X-API-Key', simKey)
      .send({ targets: phones.map((phone_number) => ({ phone_number })), launch: true });
    expect(res.status).toBe(200);
    const ids = res.body.target_ids as string[];
    const done = await waitFor(
      () => Promise.all(ids.map((id) => app.target(simKey, id))),
      (targets) => targets.every((x) => x.status === 'Finished'),
      30_000,
    );
    expect(done.map((x) => [x.category, x.subcategory, x.outcome])).toEqual([
      ['VOICEMAIL', 'DELIVERED', 'Reached voicemail'],
      ['VOICEMAIL', 'NOT_DELIVERED', 'Reached voicemail'],
      ['VOICEMAIL', 'NO_MAILBOX', 'Reached voicemail'],
    ]);
    const logs = await app.sql(
      `SELECT ended_reason, subcategory FROM call_logs WHERE target_id = ANY($1::uuid[]) ORDER BY target_id = $2 DESC, target_id = $3 DESC`,
      [ids, ids[0], ids[1]],
    );
    expect(logs).toEqual([
      { ended_reason: 'voicemail', subcategory: 'DELIVERED' },
      { ended_reason: 'voicemail-message-cut-off', subcategory: 'NOT_DELIVERED' },
      { ended_reason: 'voicemail-no-mailbox', subcategory: 'NO_MAILBOX' },
    ]);
  });
  it('a change is checked as the connection will be; a null message turns voicemail drop off', async () => {
    const patch = (settings: Record<string, unknown>) =>
      app
        .http()
        .patch(`/api/v1/provider-connections/${connectionId}`)
        .set('X-API-Key', apiKey)
        .send({ settings });
    const enable = await patch({ machine_detection: 'Enable' });
    expect(enable.status).toBe(422);
    expect(enable.body.detail).toEqual([
      expect.objectContaining({
        type: 'value_error',
        loc: ['body', 'settings'],
        msg: 'Value error, voicemail_message needs machine_detection DetectMessageEnd',
      }),
    ]);
    const off = await patch({ voicemail_message: null });
    expect(off.status).toBe(200);
    expect(off.body.settings).not.toHaveProperty('voicemail_message');
    expect(off.body.settings).toMatchObject({ machine_detection: 'DetectMessageEnd' });

    // Without a message a voicemail is today's: no update of the call, DELIVERED by default.
    const call = await answeredCall();
    expect(twilio.calls.get(call.providerCallId)!.params.get('AsyncAmdStatusCallback')).toBe(
      eventsUrl(call.callLogId),
    );
    await twilio.postAmd(call.providerCallId, 'machine_end_beep');
    expect(twilio.calls.get(call.providerCallId)!.updates).toEqual([]);
    await twilio.finish(call.providerCallId, {
      status: 'completed',
      answeredBy: 'machine_end_beep',
    });
    expect(await app.target(apiKey, call.targetId)).toMatchObject({
      category: 'VOICEMAIL',
      subcategory: 'DELIVERED',
    });
    expect(await app.callLog(call.callLogId)).toMatchObject({
      ended_reason: 'completed:machine_end_beep',
    });
  });
});
