/**
 * The provider emulators fit the official SDKs: each SDK, pointed at its emulator, creates a call and
 * reads it back, and each event the emulator posts passes the SDK's own signature check (and a forged
 * one fails it). The provider adapters are tested against these emulators.
 */
import { VapiClient } from '@vapi-ai/server-sdk';
import Retell from 'retell-sdk';
import twilio from 'twilio';
import { RetellEmulator } from '../support/emulators/retell-emulator.js';
import { TwilioEmulator } from '../support/emulators/twilio-emulator.js';
import { VapiEmulator } from '../support/emulators/vapi-emulator.js';
import { WebhookReceiver } from '../support/webhook-receiver.js';

const formParams = (body: string) => Object.fromEntries(new URLSearchParams(body));

describe('Twilio emulator with the twilio SDK', () => {
  const accountSid = 'AC' + 'a1'.repeat(16);
  const authToken = 'twilio-emulator-auth-token';
  let emulator: TwilioEmulator;
  let receiver: WebhookReceiver;
  let client: ReturnType<typeof twilio>;
  beforeAll(async () => {
    emulator = await new TwilioEmulator(accountSid, authToken).start();
    receiver = await WebhookReceiver.start(() => ({ status: 204 }));
    client = twilio(accountSid, authToken);
    client.api.baseUrl = emulator.baseUrl;
  });
  afterAll(async () => {
    await emulator.stop();
    await receiver.close();
  });

  it('creates and fetches a call, and posts status callbacks the SDK validates', async () => {
    const created = await client.calls.create({
      to: '+15550101234',
      from: '+15550100000',
      url: 'https://example.com/twiml.xml',
      statusCallback: receiver.url,
      statusCallbackMethod: 'POST',
      statusCallbackEvent: ['initiated', 'ringing', 'answered', 'completed'],
      machineDetection: 'DetectMessageEnd',
      asyncAmd: 'true',
    });
    expect(created.sid).toMatch(/^CA[0-9a-f]{32}$/);
    expect(created.status).toBe('queued');
    const request = new URLSearchParams(emulator.requests[0].rawBody);
    expect(request.getAll('StatusCallbackEvent')).toEqual([
      'initiated',
      'ringing',
      'answered',
      'completed',
    ]);
    expect(request.get('MachineDetection')).toBe('DetectMessageEnd');

    const posted = await emulator.finish(created.sid, {
      status: 'completed',
      answeredBy: 'human',
      duration: 47,
    });
    expect(posted.map((p) => formParams(p.body).CallStatus)).toEqual([
      'initiated',
      'ringing',
      'in-progress',
      'completed',
    ]);
    expect(receiver.received).toHaveLength(4);
    for (const hook of receiver.received) {
      const signature = hook.headers['x-twilio-signature'] as string;
      expect(
        twilio.validateRequest(authToken, signature, receiver.url, formParams(hook.body)),
      ).toBe(true);
      expect(
        twilio.validateRequest('another-token', signature, receiver.url, formParams(hook.body)),
      ).toBe(false);
    }
    expect(formParams(receiver.received[3].body)).toMatchObject({
      CallSid: created.sid,
      CallStatus: 'completed',
      AnsweredBy: 'human',
      CallDuration: '47',
    });

    const fetched = await client.calls(created.sid).fetch();
    expect(fetched).toMatchObject({ sid: created.sid, status: 'completed', answeredBy: 'human' });
  });

  it('refuses wrong credentials and unknown calls as Twilio does', async () => {
    const wrong = twilio(accountSid, 'not-the-token');
    wrong.api.baseUrl = emulator.baseUrl;
    await expect(
      wrong.calls.create({ to: '+15550101234', from: '+15550100000', url: 'https://e.x/t' }),
    ).rejects.toMatchObject({ status: 401, code: 20003 });
    await expect(client.calls('CA' + '0'.repeat(32)).fetch()).rejects.toMatchObject({
      status: 404,
      code: 20404,
    });
  });
});

describe('Vapi emulator with @vapi-ai/server-sdk', () => {
  const apiKey = 'vapi-emulator-private-key';
  const serverSecret = 'vapi-emulator-server-secret';
  let emulator: VapiEmulator;
  let receiver: WebhookReceiver;
  let client: VapiClient;
  beforeAll(async () => {
    emulator = await new VapiEmulator(apiKey, serverSecret).start();
    receiver = await WebhookReceiver.start(() => ({ status: 200, body: '{}' }));
    client = new VapiClient({ token: apiKey, baseUrl: emulator.baseUrl, maxRetries: 0 });
  });
  afterAll(async () => {
    await emulator.stop();
    await receiver.close();
  });

  it('creates and gets a call, and posts server messages with the server secret', async () => {
    const created = (await client.calls.create({
      assistantId: 'asst-1',
      phoneNumberId: 'pn-1',
      customer: { number: '+15550101234' },
      assistantOverrides: {
        variableValues: { first_name: 'Ada' },
        metadata: { call_log_id: 7 },
        server: { url: receiver.url },
      },
    })) as { id: string; status?: string };
    expect(created.status).toBe('queued');

    await emulator.finish(created.id, {
      endedReason: 'customer-ended-call',
      durationSeconds: 65,
      transcript: [
        { role: 'bot', message: 'Hello Ada.' },
        { role: 'user', message: 'Hi.' },
      ],
      recordingUrl: 'https://recordings.example/vapi.wav',
      analysis: {
        summary: 'Confirmed.',
        structuredData: { confirmed: true },
        successEvaluation: 'true',
      },
    });
    const messages = receiver.received.map((r) => JSON.parse(r.body).message);
    expect(messages.map((m) => [m.type, m.status])).toEqual([
      ['status-update', 'ringing'],
      ['status-update', 'in-progress'],
      ['status-update', 'ended'],
      ['end-of-call-report', undefined],
    ]);
    expect(receiver.received.every((r) => r.headers['x-vapi-secret'] === serverSecret)).toBe(true);
    expect(messages[3]).toMatchObject({
      endedReason: 'customer-ended-call',
      analysis: { structuredData: { confirmed: true } },
      artifact: { recordingUrl: 'https://recordings.example/vapi.wav' },
      call: { id: created.id, assistantOverrides: { metadata: { call_log_id: 7 } } },
    });

    const fetched = await client.calls.get({ id: created.id });
    expect(fetched).toMatchObject({
      id: created.id,
      status: 'ended',
      endedReason: 'customer-ended-call',
    });
  });

  it('refuses a wrong key', async () => {
    const wrong = new VapiClient({ token: 'nope', baseUrl: emulator.baseUrl, maxRetries: 0 });
    await expect(wrong.calls.get({ id: 'x' })).rejects.toMatchObject({ statusCode: 401 });
  });
});

describe('Retell emulator with retell-sdk', () => {
  const apiKey = 'key_retell_emulator';
  let emulator: RetellEmulator;
  let receiver: WebhookReceiver;
  let client: Retell;
  beforeAll(async () => {
    receiver = await WebhookReceiver.start(() => ({ status: 204 }));
    emulator = await new RetellEmulator(apiKey, receiver.url).start();
    client = new Retell({ apiKey, baseURL: emulator.baseUrl, maxRetries: 0 });
  });
  afterAll(async () => {
    await emulator.stop();
    await receiver.close();
  });

  it('creates and retrieves a call, and posts webhooks the SDK verifies', async () => {
    const created = await client.call.createPhoneCall({
      from_number: '+15550100000',
      to_number: '+15550101234',
      override_agent_id: 'agent_1',
      retell_llm_dynamic_variables: { first_name: 'Ada' },
      metadata: { call_log_id: 7 },
    });
    expect(created).toMatchObject({ call_status: 'registered', agent_id: 'agent_1' });

    await emulator.finish(created.call_id, {
      disconnectionReason: 'agent_hangup',
      durationSeconds: 30,
      transcript: [{ role: 'agent', content: 'Hello Ada.' }],
      analysis: { call_successful: true, custom_analysis_data: { confirmed: true } },
    });
    const events = receiver.received.map((r) => JSON.parse(r.body));
    expect(events.map((e) => e.event)).toEqual(['call_started', 'call_ended', 'call_analyzed']);
    expect(events[1].call.call_analysis).toBeUndefined();
    expect(events[2].call).toMatchObject({
      call_id: created.call_id,
      disconnection_reason: 'agent_hangup',
      metadata: { call_log_id: 7 },
      call_analysis: { custom_analysis_data: { confirmed: true } },
    });
    for (const hook of receiver.received) {
      const signature = hook.headers['x-retell-signature'] as string;
      expect(await Retell.verify(hook.body, apiKey, signature)).toBe(true);
      expect(await Retell.verify(hook.body, 'another-key', signature)).toBe(false);
    }

    const retrieved = await client.call.retrieve(created.call_id);
    expect(retrieved).toMatchObject({ call_status: 'ended', duration_ms: 30_000 });
  });

  it('refuses a wrong key', async () => {
    const wrong = new Retell({ apiKey: 'nope', baseURL: emulator.baseUrl, maxRetries: 0 });
    await expect(wrong.call.retrieve('call_x')).rejects.toMatchObject({ status: 401 });
  });
});
