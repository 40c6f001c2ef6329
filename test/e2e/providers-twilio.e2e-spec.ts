import twilio from 'twilio';
import { TwilioEmulator } from '../support/emulators/twilio-emulator.js';
import { ProviderApp, startProviderApp } from '../support/provider-app.js';
import { waitFor } from '../support/test-app.js';

/**
 * Twilio connections end to end: the app places calls through the emulator's REST API and the
 * emulator posts signed status callbacks to the connection's events URL over HTTP.
 */
describe('Twilio provider connections', () => {
  let app: ProviderApp;
  const accounts = [
    { sid: 'AC' + 'a1'.repeat(16), token: 'twilio-auth-token-of-acme' },
    { sid: 'AC' + 'b2'.repeat(16), token: 'twilio-auth-token-of-globex' },
  ];
  let emulators: TwilioEmulator[];
  let orgs: { apiKey: string; connectionId: string }[];

  beforeAll(async () => {
    emulators = await Promise.all(accounts.map((a) => new TwilioEmulator(a.sid, a.token).start()));
    app = await startProviderApp();
    orgs = [];
    for (const [i, account] of accounts.entries()) {
      const { apiKey } = await app.createOrganization();
      const connectionId = await app.connect(apiKey, {
        type: 'twilio',
        credentials: { account_sid: account.sid, auth_token: account.token },
        settings: {
          api_base_url: emulators[i].baseUrl,
          twiml_template: '<Response><Say>Hello {{input_data.first_name}}</Say></Response>',
          machine_detection: 'Enable',
        },
        is_default: true,
      });
      orgs.push({ apiKey, connectionId });
    }
  });
  afterAll(async () => {
    await app?.close();
    await Promise.all((emulators ?? []).map((e) => e.stop()));
  });

  const acme = () => orgs[0];

  it('places a good call through the organization default connection and ends it by its signed callbacks', async () => {
    const { apiKey, connectionId } = acme();
    const call = await app.placeCall(apiKey);
    const params = emulators[0].calls.get(call.providerCallId)!.params;
    expect(Object.fromEntries(params)).toMatchObject({
      From: '+15550009999',
      Twiml: '<Response><Say>Hello Ada</Say></Response>',
      StatusCallback: `${app.baseUrl}/api/v1/telephony/${connectionId}/events?call_log_id=${call.callLogId}`,
      MachineDetection: 'Enable',
    });
    expect(await app.callLog(call.callLogId)).toMatchObject({ provider: connectionId });

    const posted = await emulators[0].finish(call.providerCallId, {
      status: 'completed',
      answeredBy: 'human',
      duration: 65,
    });
    // initiated, ringing, in-progress, completed
    expect(posted.map((p) => p.status)).toEqual([200, 200, 200, 200]);
    expect(await app.target(apiKey, call.targetId)).toMatchObject({
      status: 'Finished',
      resolution: 'successful',
      category: 'GOOD',
      execution_minutes: 2,
    });
    expect(await app.callLog(call.callLogId)).toMatchObject({
      outcome: 'GOOD',
      ended_reason: 'completed:human',
      duration_seconds: 65,
      provider_call_id: call.providerCallId,
    });
  });

  it.each([
    [
      'voicemail',
      { status: 'completed', answeredBy: 'machine_end_beep' },
      'VOICEMAIL',
      'DELIVERED',
    ],
    ['no answer', { status: 'no-answer' }, 'NO_RESPONSE', null],
    ['busy', { status: 'busy' }, 'NO_RESPONSE', null],
    ['failed', { status: 'failed' }, 'DISCONNECTED', null],
  ] as const)(
    '%s: the target ends with its category',
    async (_, outcome, category, subcategory) => {
      const { apiKey } = acme();
      const call = await app.placeCall(apiKey);
      await emulators[0].finish(call.providerCallId, outcome);
      expect(await app.target(apiKey, call.targetId)).toMatchObject({
        status: 'Finished',
        resolution: 'unsuccessful',
        category,
        subcategory,
      });
      expect(await app.callLog(call.callLogId)).toMatchObject({ outcome: category });
    },
  );

  it('a call whose callbacks never come is read back with getCall after its deadline', async () => {
    const { apiKey } = acme();
    const call = await app.placeCall(apiKey);
    const emulated = emulators[0].calls.get(call.providerCallId)!;
    Object.assign(emulated, { status: 'completed', answeredBy: 'human', duration: 30 });
    await app.expireDeadline(call.callLogId);
    const target = await waitFor(
      () => app.target(apiKey, call.targetId),
      (t) => t.status !== 'In Progress',
    );
    expect(target).toMatchObject({ status: 'Finished', category: 'GOOD' });
    expect(
      emulators[0].requests.some(
        (r) => r.method === 'GET' && r.path.endsWith(`/Calls/${call.providerCallId}.json`),
      ),
    ).toBe(true);
  });

  it('401 and nothing changes for a forged signature', async () => {
    const { apiKey } = acme();
    const call = await app.placeCall(apiKey);
    const forged = await emulators[0].postStatus(call.providerCallId, 'completed', {
      authToken: 'not-the-auth-token',
    });
    expect(forged.status).toBe(401);
    expect(await app.target(apiKey, call.targetId)).toMatchObject({ status: 'In Progress' });
    expect(await app.storedEvents(call.callLogId)).toBe(0);
  });

  it('duplicated and reordered callbacks change nothing after the final one', async () => {
    const { apiKey } = acme();
    const call = await app.placeCall(apiKey);
    await emulators[0].finish(call.providerCallId, { status: 'completed', answeredBy: 'human' });
    const finished = await app.target(apiKey, call.targetId);
    const late = [
      await emulators[0].postStatus(call.providerCallId, 'in-progress'),
      await emulators[0].postStatus(call.providerCallId, 'completed'),
      await emulators[0].postStatus(call.providerCallId, 'no-answer'),
    ];
    expect(late.map((p) => p.status)).toEqual([200, 200, 200]);
    expect(await app.target(apiKey, call.targetId)).toEqual(finished);
    expect(await app.callLog(call.callLogId)).toMatchObject({ outcome: 'GOOD' });
  });

  it("one organization's Twilio account cannot touch another's calls", async () => {
    const [a, b] = orgs;
    const call = await app.placeCall(b.apiKey);
    // A callback for B's call, signed with A's token, to B's URL (bad signature) and to A's URL
    // (A's signature is right there, but the call is not A's).
    const params = {
      AccountSid: accounts[0].sid,
      CallSid: call.providerCallId,
      CallStatus: 'completed',
      AnsweredBy: 'human',
      CallDuration: '10',
    };
    const post = async (connectionId: string) => {
      const url = `${app.baseUrl}/api/v1/telephony/${connectionId}/events?call_log_id=${call.callLogId}`;
      const res = await fetch(url, {
        method: 'POST',
        headers: {
          'Content-Type': 'application/x-www-form-urlencoded',
          'X-Twilio-Signature': twilio.getExpectedTwilioSignature(accounts[0].token, url, params),
        },
        body: new URLSearchParams(params).toString(),
      });
      return res.status;
    };
    expect(await post(b.connectionId)).toBe(401);
    expect(await post(a.connectionId)).toBe(404);
    expect(await app.target(b.apiKey, call.targetId)).toMatchObject({ status: 'In Progress' });
    expect(await app.storedEvents(call.callLogId)).toBe(0);

    await emulators[1].finish(call.providerCallId, { status: 'completed', answeredBy: 'human' });
    expect(await app.target(b.apiKey, call.targetId)).toMatchObject({ status: 'Finished' });
  });

  it('404 for an unknown connection', async () => {
    const res = await app
      .http()
      .post('/api/v1/telephony/6a1f4c2e-0000-4000-8000-000000000000/events')
      .type('form')
      .send('CallSid=CA1&CallStatus=completed');
    expect(res.status).toBe(404);
  });
});
