/**
 * The thin provider clients against the emulators: each starts a call with the right provider
 * request, reads the provider's signed events into the neutral shape (refusing a forged one), and
 * reads a call back for deadline recovery.
 */
import { vi } from 'vitest';
import { UnauthorizedError } from '../../src/common/errors/domain-errors.js';
import {
  DestinationPolicy,
  RefusedDestinationError,
} from '../../src/common/net/outbound-destination.js';
import { pinnedFetch } from '../../src/common/net/pinned-fetch.js';
import { providerCallClient } from '../../src/modules/provider-connection/infrastructure/clients/sdk-provider-call-clients.js';
import { RetellCallClient } from '../../src/modules/provider-connection/infrastructure/clients/retell-call-client.js';
import { TwilioCallClient } from '../../src/modules/provider-connection/infrastructure/clients/twilio-call-client.js';
import { VapiCallClient } from '../../src/modules/provider-connection/infrastructure/clients/vapi-call-client.js';
import {
  ConnectionType,
  effectiveSettings,
  ResolvedConnection,
} from '../../src/modules/provider-connection/domain/provider-connection.js';
import type { ProviderRequest } from '../../src/modules/telephony/application/ports/call-provider.js';
import { RetellEmulator } from '../support/emulators/retell-emulator.js';
import { TwilioEmulator } from '../support/emulators/twilio-emulator.js';
import { VapiEmulator } from '../support/emulators/vapi-emulator.js';
import { ReceivedWebhook, WebhookReceiver } from '../support/webhook-receiver.js';

/** The emulators listen on 127.0.0.1: PROVIDER_ALLOW_PRIVATE=true, as the e2e tests run. */
const allowed: DestinationPolicy = { allowPrivate: true, setting: 'PROVIDER_ALLOW_PRIVATE' };

function connection(
  type: ConnectionType,
  credentials: Record<string, string>,
  settings: Record<string, unknown>,
): ResolvedConnection {
  return {
    id: '00000000-0000-4000-8000-000000000001',
    organizationId: '00000000-0000-4000-8000-000000000002',
    type,
    name: type,
    credentials,
    settings: effectiveSettings(type, settings),
    isDefault: false,
    createdAt: new Date(),
    updatedAt: new Date(),
  };
}

const callRequest = (eventsUrl: string) => ({
  to: '+15550101234',
  from: '+15550109999',
  inputData: { first_name: 'Ada', visit: { day: 'Tuesday' }, count: 2 },
  callLogId: 7,
  targetId: 'target-1',
  campaignId: 'campaign-1',
  campaignType: 'patient',
  attempt: 1,
  eventsUrl,
});

function incoming(hook: ReceivedWebhook, url: string): ProviderRequest {
  return {
    rawBody: Buffer.from(hook.body),
    contentType: String(hook.headers['content-type']),
    headers: Object.fromEntries(Object.entries(hook.headers).map(([k, v]) => [k, String(v)])),
    url,
  };
}

describe('TwilioCallClient', () => {
  const accountSid = 'AC' + 'b2'.repeat(16);
  const authToken = 'twilio-client-auth-token';
  let emulator: TwilioEmulator;
  let receiver: WebhookReceiver;
  beforeAll(async () => {
    // The client loads the SDK on first use: load it here, outside any test's time.
    await import('twilio');
    emulator = await new TwilioEmulator(accountSid, authToken).start();
    receiver = await WebhookReceiver.start(() => ({ status: 204 }));
  }, 60_000);
  afterAll(async () => {
    await emulator.stop();
    await receiver.close();
  });

  const client = (settings: Record<string, unknown>) =>
    new TwilioCallClient(
      connection(
        'twilio',
        { account_sid: accountSid, auth_token: authToken },
        { api_base_url: emulator.baseUrl, ...settings },
      ),
      allowed,
    );

  it('places a call from a TwiML template, reads its signed callbacks and reads it back', async () => {
    const twilioClient = client({
      twiml_template: '<Response><Say>Hello {{input_data.first_name}}</Say></Response>',
      machine_detection: 'Enable',
    });
    const { providerCallId } = await twilioClient.startCall(callRequest(receiver.url));
    const sent = new URLSearchParams(emulator.requests.at(-1)!.rawBody);
    expect(Object.fromEntries(sent)).toMatchObject({
      To: '+15550101234',
      From: '+15550109999',
      Twiml: '<Response><Say>Hello Ada</Say></Response>',
      StatusCallback: `${receiver.url}?call_log_id=7`,
      MachineDetection: 'Enable',
      AsyncAmd: 'true',
    });

    receiver.received.length = 0;
    await emulator.finish(providerCallId, {
      status: 'completed',
      answeredBy: 'machine_end_beep',
      duration: 21,
    });
    const callbackUrl = `${receiver.url}?call_log_id=7`;
    const events = [];
    for (const hook of receiver.received) {
      events.push(...(await twilioClient.readEvents(incoming(hook, callbackUrl))));
    }
    expect(events.map((e) => [e.key, e.kind, e.callLogId])).toEqual([
      [`twilio:${providerCallId}:started`, 'started', 7],
      [`twilio:${providerCallId}:ended`, 'ended', 7],
    ]);
    expect(events[1].result).toMatchObject({
      outcome: 'VOICEMAIL',
      endedReason: 'completed:machine_end_beep',
      durationSeconds: 21,
    });

    const forged = receiver.received.at(-1)!;
    await expect(
      twilioClient.readEvents(incoming(forged, `${receiver.url}?call_log_id=8`)),
    ).rejects.toBeInstanceOf(UnauthorizedError);

    const recovered = await twilioClient.getCall({ providerCallId, callLogId: 7 });
    expect(recovered).toMatchObject({ kind: 'ended', result: { outcome: 'VOICEMAIL' } });
  });

  it('places a call with a TwiML URL and the connection’s own caller id; no answer', async () => {
    const twilioClient = client({
      twiml_url: 'https://example.com/t.xml',
      from_number: '+15550100000',
    });
    const { providerCallId } = await twilioClient.startCall(callRequest(receiver.url));
    const sent = new URLSearchParams(emulator.requests.at(-1)!.rawBody);
    expect(sent.get('Url')).toBe('https://example.com/t.xml');
    expect(sent.get('From')).toBe('+15550100000');
    expect(sent.get('MachineDetection')).toBeNull();
    await emulator.finish(providerCallId, { status: 'no-answer' });
    expect(await twilioClient.getCall({ providerCallId, callLogId: 7 })).toMatchObject({
      result: { outcome: 'NO_RESPONSE' },
    });
    expect(await twilioClient.getCall({ providerCallId: null, callLogId: 7 })).toBeNull();
  });
});

describe('VapiCallClient', () => {
  const apiKey = 'vapi-client-key';
  const serverSecret = 'vapi-client-server-secret';
  let emulator: VapiEmulator;
  let receiver: WebhookReceiver;
  let vapi: VapiCallClient;
  beforeAll(async () => {
    // The client loads the SDK on first use (about 2,500 modules): load it here, outside any test's time.
    await import('@vapi-ai/server-sdk');
    emulator = await new VapiEmulator(apiKey, serverSecret).start();
    receiver = await WebhookReceiver.start(() => ({ status: 200, body: '{}' }));
    vapi = new VapiCallClient(
      connection(
        'vapi',
        { api_key: apiKey, server_secret: serverSecret },
        { assistant_id: 'asst-1', phone_number_id: 'pn-1', api_base_url: emulator.baseUrl },
      ),
      pinnedFetch(allowed),
    );
  }, 60_000);
  afterAll(async () => {
    await emulator.stop();
    await receiver.close();
  });

  it('places a call, reads its server messages and reads it back', async () => {
    const { providerCallId } = await vapi.startCall(callRequest(receiver.url));
    expect(JSON.parse(emulator.requests.at(-1)!.rawBody)).toEqual({
      assistantId: 'asst-1',
      phoneNumberId: 'pn-1',
      customer: { number: '+15550101234' },
      assistantOverrides: {
        variableValues: { first_name: 'Ada', visit: { day: 'Tuesday' }, count: 2 },
        metadata: { call_log_id: 7, target_id: 'target-1', campaign_id: 'campaign-1', attempt: 1 },
        server: { url: receiver.url },
      },
    });

    await emulator.finish(providerCallId, {
      endedReason: 'assistant-forwarded-call',
      durationSeconds: 40,
      transcript: [{ role: 'bot', message: 'Let me transfer you.' }],
      analysis: { summary: 'Asked for a person.', structuredData: { wants_person: true } },
    });
    const events = [];
    for (const hook of receiver.received) {
      events.push(...(await vapi.readEvents(incoming(hook, receiver.url))));
    }
    expect(events.map((e) => [e.key, e.kind, e.callLogId])).toEqual([
      [`vapi:${providerCallId}:started`, 'started', 7],
      [`vapi:${providerCallId}:ended`, 'ended', 7],
    ]);
    expect(events[1].result).toMatchObject({
      outcome: 'HUMAN_ONLY',
      durationSeconds: 40,
      transcripts: [{ role: 'assistant', message: 'Let me transfer you.' }],
      postCallData: { summary: 'Asked for a person.' },
      outputData: { wants_person: true },
    });

    const forged = { ...receiver.received[0], headers: { 'x-vapi-secret': 'guess' } };
    await expect(vapi.readEvents(incoming(forged, receiver.url))).rejects.toBeInstanceOf(
      UnauthorizedError,
    );

    expect(await vapi.getCall({ providerCallId, callLogId: 7 })).toMatchObject({
      kind: 'ended',
      callLogId: 7,
      result: { outcome: 'HUMAN_ONLY', endedReason: 'assistant-forwarded-call' },
    });
  });
  it('with a voicemail_message, gives Vapi the filled-in message and its detection, and maps its voicemail report', async () => {
    const dropping = new VapiCallClient(
      connection(
        'vapi',
        { api_key: apiKey, server_secret: serverSecret },
        {
          assistant_id: 'asst-1',
          phone_number_id: 'pn-1',
          api_base_url: emulator.baseUrl,
          voicemail_message: 'Hi {{input_data.first_name}}, see you {{input_data.visit.day}}.',
        },
      ),
      pinnedFetch(allowed),
    );
    const { providerCallId } = await dropping.startCall(callRequest(receiver.url));
    expect(JSON.parse(emulator.requests.at(-1)!.rawBody).assistantOverrides).toMatchObject({
      voicemailMessage: 'Hi Ada, see you Tuesday.',
      voicemailDetection: { provider: 'vapi' },
    });
    receiver.received.length = 0;
    await emulator.finish(providerCallId, { endedReason: 'voicemail', durationSeconds: 25 });
    const events = [];
    for (const hook of receiver.received) {
      events.push(...(await dropping.readEvents(incoming(hook, receiver.url))));
    }
    expect(events.at(-1)).toMatchObject({
      kind: 'ended',
      result: { outcome: 'VOICEMAIL', endedReason: 'voicemail', subcategory: 'DELIVERED' },
    });
  });
  it("leaves the campaign's voicemail message on a connection with none, marked in the metadata", async () => {
    const vapi = new VapiCallClient(
      connection(
        'vapi',
        { api_key: apiKey, server_secret: serverSecret },
        { assistant_id: 'asst-1', phone_number_id: 'pn-1', api_base_url: emulator.baseUrl },
      ),
      pinnedFetch(allowed),
    );
    const { providerCallId } = await vapi.startCall({
      ...callRequest(receiver.url),
      voicemailMessage: 'Hi {{input_data.first_name}}, your clinic calling.',
    });
    expect(JSON.parse(emulator.requests.at(-1)!.rawBody).assistantOverrides).toMatchObject({
      metadata: { call_log_id: 7, voicemail_drop: true },
      voicemailMessage: 'Hi Ada, your clinic calling.',
      voicemailDetection: { provider: 'vapi' },
    });
    receiver.received.length = 0;
    await emulator.finish(providerCallId, { endedReason: 'voicemail', durationSeconds: 25 });
    const events = [];
    for (const hook of receiver.received) {
      events.push(...(await vapi.readEvents(incoming(hook, receiver.url))));
    }
    expect(events.at(-1)).toMatchObject({
      kind: 'ended',
      result: { outcome: 'VOICEMAIL', subcategory: 'DELIVERED' },
    });
  });
});

describe('RetellCallClient', () => {
  const apiKey = 'key_retell_client';
  let emulator: RetellEmulator;
  let receiver: WebhookReceiver;
  beforeAll(async () => {
    receiver = await WebhookReceiver.start(() => ({ status: 204 }));
    emulator = await new RetellEmulator(apiKey).start();
  });
  afterAll(async () => {
    await emulator.stop();
    await receiver.close();
  });

  const client = (settings: Record<string, unknown> = {}) =>
    new RetellCallClient(
      connection(
        'retell',
        { api_key: apiKey },
        { agent_id: 'agent_1', api_base_url: emulator.baseUrl, ...settings },
      ),
      pinnedFetch(allowed),
    );

  it('places a call, takes the outcome at call_analyzed, and reads it back', async () => {
    const retell = client();
    const { providerCallId } = await retell.startCall(callRequest(receiver.url));
    const sent = JSON.parse(emulator.requests.at(-1)!.rawBody);
    expect(sent).toEqual({
      from_number: '+15550109999',
      to_number: '+15550101234',
      override_agent_id: 'agent_1',
      agent_override: { agent: { webhook_url: receiver.url } },
      retell_llm_dynamic_variables: { first_name: 'Ada', visit: '{"day":"Tuesday"}', count: '2' },
      metadata: { call_log_id: 7, target_id: 'target-1', campaign_id: 'campaign-1', attempt: 1 },
    });

    receiver.received.length = 0;
    await emulator.finish(providerCallId, {
      disconnectionReason: 'user_hangup',
      durationSeconds: 12,
      analysis: { in_voicemail: true, custom_analysis_data: { left_message: true } },
    });
    const events = [];
    for (const hook of receiver.received) {
      events.push(...(await retell.readEvents(incoming(hook, receiver.url))));
    }
    expect(events.map((e) => [e.key, e.kind, e.callLogId])).toEqual([
      [`retell:${providerCallId}:started`, 'started', 7],
      [`retell:${providerCallId}:ended`, 'ended', 7],
    ]);
    expect(events[1].result).toMatchObject({
      outcome: 'VOICEMAIL',
      durationSeconds: 12,
      outputData: { left_message: true },
    });

    const hook = receiver.received[0];
    const tampered = { ...hook, body: hook.body.replace('call_started', 'call_analyzed') };
    await expect(retell.readEvents(incoming(tampered, receiver.url))).rejects.toBeInstanceOf(
      UnauthorizedError,
    );
    expect(await retell.getCall({ providerCallId, callLogId: 7 })).toMatchObject({
      kind: 'ended',
      result: { outcome: 'VOICEMAIL' },
    });
  });

  it.each([
    ['voicemail_reached', 'DELIVERED'],
    ['user_hangup', 'NOT_DELIVERED'],
  ])(
    'with a voicemail_message, gives Retell the filled-in message; %s in voicemail: %s',
    async (disconnectionReason, subcategory) => {
      const retell = client({ voicemail_message: 'Hi {{input_data.first_name}}.' });
      const { providerCallId } = await retell.startCall(callRequest(receiver.url));
      expect(JSON.parse(emulator.requests.at(-1)!.rawBody).agent_override).toEqual({
        agent: {
          webhook_url: receiver.url,
          voicemail_option: { action: { type: 'static_text', text: 'Hi Ada.' } },
        },
      });
      receiver.received.length = 0;
      await emulator.finish(providerCallId, {
        disconnectionReason,
        durationSeconds: 20,
        analysis: { in_voicemail: true },
      });
      const events = [];
      for (const hook of receiver.received) {
        events.push(...(await retell.readEvents(incoming(hook, receiver.url))));
      }
      expect(events.at(-1)).toMatchObject({
        kind: 'ended',
        result: { outcome: 'VOICEMAIL', endedReason: disconnectionReason, subcategory },
      });
    },
  );

  it.each([
    ['a connection with no message', {}],
    ['a connection with its own message', { voicemail_message: 'The connection speaking.' }],
  ])(
    "leaves the campaign's voicemail message on %s, and reads its report as a drop's",
    async (_what, settings) => {
      const retell = client(settings);
      const { providerCallId } = await retell.startCall({
        ...callRequest(receiver.url),
        voicemailMessage: 'Hi {{input_data.first_name}}, your clinic calling.',
      });
      const sent = JSON.parse(emulator.requests.at(-1)!.rawBody);
      expect([sent.agent_override, sent.metadata]).toEqual([
        {
          agent: {
            webhook_url: receiver.url,
            voicemail_option: {
              action: { type: 'static_text', text: 'Hi Ada, your clinic calling.' },
            },
          },
        },
        {
          call_log_id: 7,
          target_id: 'target-1',
          campaign_id: 'campaign-1',
          attempt: 1,
          voicemail_drop: true,
        },
      ]);
      receiver.received.length = 0;
      await emulator.finish(providerCallId, {
        disconnectionReason: 'user_hangup',
        durationSeconds: 9,
        analysis: { in_voicemail: true },
      });
      const events = [];
      for (const hook of receiver.received) {
        events.push(...(await retell.readEvents(incoming(hook, receiver.url))));
      }
      expect(events.at(-1)).toMatchObject({
        kind: 'ended',
        result: { outcome: 'VOICEMAIL', subcategory: 'NOT_DELIVERED' },
      });
    },
  );

  it('takes the outcome at call_ended when analysis is off', async () => {
    const retell = client({ final_event: 'call_ended' });
    const { providerCallId } = await retell.startCall(callRequest(receiver.url));
    receiver.received.length = 0;
    await emulator.finish(providerCallId, { disconnectionReason: 'dial_busy' }, false);
    const events = [];
    for (const hook of receiver.received) {
      events.push(...(await retell.readEvents(incoming(hook, receiver.url))));
    }
    expect(events).toMatchObject([
      { kind: 'ended', callLogId: 7, result: { outcome: 'NO_RESPONSE', endedReason: 'dial_busy' } },
    ]);
  });
});

describe('providerCallClient', () => {
  it('gives each provider type its client, and none to the types the engine serves itself', () => {
    const base = { api_base_url: 'http://127.0.0.1:9' };
    expect(
      providerCallClient(
        connection('twilio', { account_sid: 'AC' + '0'.repeat(32), auth_token: 't' }, base),
        allowed,
      ),
    ).toBeInstanceOf(TwilioCallClient);
    expect(
      providerCallClient(connection('vapi', { api_key: 'k', server_secret: 's' }, base), allowed),
    ).toBeInstanceOf(VapiCallClient);
    expect(
      providerCallClient(connection('retell', { api_key: 'k' }, base), allowed),
    ).toBeInstanceOf(RetellCallClient);
    expect(providerCallClient(connection('http', { secret: 's' }, base), allowed)).toBeNull();
    expect(providerCallClient(connection('simulated', {}, {}), allowed)).toBeNull();
  });
});

describe('the destination policy, checked again when connecting', () => {
  const accountSid = 'AC' + 'c3'.repeat(16);
  const emulators = {
    twilio: new TwilioEmulator(accountSid, 'twilio-policy-token'),
    vapi: new VapiEmulator('vapi-policy-key', 'vapi-policy-secret'),
    retell: new RetellEmulator('retell-policy-key'),
  };
  beforeAll(async () => {
    await Promise.all([import('twilio'), import('@vapi-ai/server-sdk'), import('retell-sdk')]);
    await Promise.all(Object.values(emulators).map((e) => e.start()));
  }, 60_000);
  afterAll(async () => {
    await Promise.all(Object.values(emulators).map((e) => e.stop()));
  });

  /** The emulator's URL under a name only the policy's resolver knows. */
  const named = (baseUrl: string) => baseUrl.replace('127.0.0.1', 'provider.example.test');
  const toLoopback = async () => [{ address: '127.0.0.1', family: 4 }];
  /** The refusal's message, whether the SDK rethrew it as its own error (with it as the cause) or not. */
  const refusal = async (call: Promise<unknown>): Promise<string> => {
    const error = await call.then(
      () => null,
      (err: unknown) => err,
    );
    for (let e: any = error; e; e = e.cause) {
      if (e instanceof RefusedDestinationError) return e.message;
    }
    throw new Error(`not refused: ${String(error)}`);
  };

  const clients = (policy: DestinationPolicy, rename: (url: string) => string = (u) => u) =>
    ({
      twilio: providerCallClient(
        connection(
          'twilio',
          { account_sid: accountSid, auth_token: 'twilio-policy-token' },
          { api_base_url: rename(emulators.twilio.baseUrl), twiml_url: 'https://example.com/t' },
        ),
        policy,
      )!,
      vapi: providerCallClient(
        connection(
          'vapi',
          { api_key: 'vapi-policy-key', server_secret: 'vapi-policy-secret' },
          {
            assistant_id: 'a',
            phone_number_id: 'p',
            api_base_url: rename(emulators.vapi.baseUrl),
          },
        ),
        policy,
      )!,
      retell: providerCallClient(
        connection(
          'retell',
          { api_key: 'retell-policy-key' },
          { agent_id: 'agent_1', api_base_url: rename(emulators.retell.baseUrl) },
        ),
        policy,
      )!,
    }) as const;

  it.each(['twilio', 'vapi', 'retell'] as const)(
    '%s: a loopback API base URL is refused before anything (credentials included) is sent',
    async (type) => {
      // The Vapi SDK leaves its 60 s request timer running when fetch rejects: keep it off the clock
      // (timers and Date only: I/O callbacks, setImmediate and microtasks stay real).
      if (type === 'vapi')
        vi.useFakeTimers({
          toFake: ['setTimeout', 'clearTimeout', 'setInterval', 'clearInterval', 'Date'],
        });
      const refusing = { allowPrivate: false, setting: 'PROVIDER_ALLOW_PRIVATE' };
      const before = emulators[type].requests.length;
      const call = clients(refusing)[type].startCall(callRequest('https://example.com/events'));
      expect(await refusal(call)).toBe(
        '127.0.0.1 resolves to 127.0.0.1, a loopback address (PROVIDER_ALLOW_PRIVATE is off)',
      );
      // A name that resolves to loopback when connecting (DNS moved since it was saved) too.
      const renamed = clients({ ...refusing, resolve: toLoopback }, named)[type];
      expect(await refusal(renamed.startCall(callRequest('https://example.com/events')))).toBe(
        'provider.example.test resolves to 127.0.0.1, a loopback address (PROVIDER_ALLOW_PRIVATE is off)',
      );
      expect(emulators[type].requests.length).toBe(before);
      vi.clearAllTimers();
      vi.useRealTimers();
    },
  );

  it.each(['twilio', 'vapi', 'retell'] as const)(
    '%s: the connection goes to the address that was checked, not to a second DNS answer',
    async (type) => {
      // provider.example.test is unknown to the system resolver: only the pinned address reaches it.
      const pinned = clients({ ...allowed, resolve: toLoopback }, named)[type];
      const before = emulators[type].requests.length;
      await pinned.startCall(callRequest('https://example.com/events'));
      expect(emulators[type].requests.length).toBe(before + 1);
    },
  );
});
