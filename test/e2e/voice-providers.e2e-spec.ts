import { timingSafeEqual } from 'crypto';
import {
  CallEvent,
  CallProvider,
  ConnectionSettings,
  ProviderRequest,
  ResolvedConnection,
  SettingProblem,
  StartCallRequest,
  UnauthorizedError,
  VoiceProvider,
} from '../../src/index.js';
import { BellEmulator } from '../support/emulators/bell-emulator.js';
import { ProviderApp, startProviderApp } from '../support/provider-app.js';
import { waitFor } from '../support/test-app.js';

/** A team's own carrier, registered as the connection type `bell` (no file of the service edited). */
class BellVoiceProvider extends VoiceProvider {
  readonly type = 'bell';
  readonly credentialFields = ['api_key'];
  readonly settingFields = ['api_base_url', 'region'];

  checkSettings(settings: ConnectionSettings): SettingProblem[] {
    const problems: SettingProblem[] = [];
    if (typeof settings.api_base_url !== 'string' || !/^https?:\/\//.test(settings.api_base_url)) {
      problems.push({ field: 'api_base_url', message: 'an http(s) URL is required' });
    }
    if (settings.region !== undefined && !['us', 'eu'].includes(String(settings.region))) {
      problems.push({ field: 'region', message: 'region must be us or eu' });
    }
    return problems;
  }

  connect(connection: ResolvedConnection): CallProvider {
    return new BellCallProvider(
      connection.id,
      String(connection.settings.api_base_url),
      connection.credentials.api_key,
    );
  }
}

class BellCallProvider extends CallProvider {
  constructor(
    readonly name: string,
    private readonly baseUrl: string,
    private readonly apiKey: string,
  ) {
    super();
  }

  async startCall(request: StartCallRequest): Promise<{ providerCallId: string }> {
    const res = await fetch(`${this.baseUrl}/calls`, {
      method: 'POST',
      headers: { authorization: `Bearer ${this.apiKey}`, 'content-type': 'application/json' },
      body: JSON.stringify({
        to: request.to,
        callback_url: request.eventsUrl,
        reference: String(request.callLogId),
      }),
    });
    if (res.status !== 201) throw new Error(`Bell refused the call: ${res.status}`);
    return { providerCallId: ((await res.json()) as { id: string }).id };
  }

  async getCall(): Promise<CallEvent | null> {
    return null;
  }

  async readEvents(request: ProviderRequest): Promise<CallEvent[]> {
    const given = Buffer.from(request.headers['x-bell-key'] ?? '');
    const expected = Buffer.from(this.apiKey);
    if (given.length !== expected.length || !timingSafeEqual(given, expected)) {
      throw new UnauthorizedError('Invalid Bell key');
    }
    const event = JSON.parse(request.rawBody.toString('utf8')) as {
      event_id: string;
      call_id: string;
      reference: string;
      result: 'answered' | 'no_answer';
    };
    return [
      {
        key: event.event_id,
        kind: 'ended',
        providerCallId: event.call_id,
        callLogId: Number(event.reference),
        at: new Date(),
        result: {
          outcome: event.result === 'answered' ? 'GOOD' : 'NO_RESPONSE',
          endedReason: `bell:${event.result}`,
          durationSeconds: 12,
          transcripts: [],
          agentData: {},
          postCallData: null,
          qa: null,
          recordingUrls: [],
          outputData: { bell_result: event.result },
        },
      },
    ];
  }
}

const API_KEY = 'bell-key-0123456789abcdef';

describe('a voice provider of its own (CampaignCallingModule.forRoot({ voiceProviders }))', () => {
  let t: ProviderApp;
  let bell: BellEmulator;

  beforeAll(async () => {
    bell = await new BellEmulator().start();
    t = await startProviderApp({}, { voiceProviders: [new BellVoiceProvider()] });
  });
  afterAll(async () => {
    await t?.close();
    await bell?.stop();
  });

  const create = (apiKey: string, body: Record<string, unknown>) =>
    t.http().post('/api/v1/provider-connections').set('X-API-Key', apiKey).send(body);

  it('creates a connection of the registered type, its credentials sealed and shown masked', async () => {
    const { apiKey } = await t.createOrganization();
    const res = await create(apiKey, {
      type: 'bell',
      name: 'Bell production',
      credentials: { api_key: API_KEY },
      settings: { api_base_url: bell.baseUrl, region: 'eu' },
    });
    expect(res.status).toBe(201);
    expect(res.body).toEqual({
      id: expect.any(String),
      organization_id: expect.any(String),
      type: 'bell',
      name: 'Bell production',
      credentials: { api_key: '***cdef' },
      settings: { api_base_url: bell.baseUrl, region: 'eu' },
      is_default: false,
      events_url_path: `/api/v1/telephony/${res.body.id}/events`,
      created_at: expect.any(String),
      updated_at: expect.any(String),
    });
    const [row] = await t.sql(
      `SELECT credentials_ciphertext, credentials_masked FROM provider_connections WHERE id = $1`,
      [res.body.id],
    );
    expect(row.credentials_ciphertext).not.toContain(API_KEY);
    expect(row.credentials_masked).toEqual({ api_key: '***cdef' });

    const patch = (body: Record<string, unknown>) =>
      t
        .http()
        .patch(`/api/v1/provider-connections/${res.body.id}`)
        .set('X-API-Key', apiKey)
        .send(body);
    const refused = await patch({ settings: { region: 'mars' } });
    expect(refused.status).toBe(422);
    expect(refused.body.detail).toEqual([
      {
        type: 'value_error',
        loc: ['body', 'settings', 'region'],
        msg: 'Value error, region must be us or eu',
        input: 'mars',
        ctx: { error: {} },
      },
    ]);
    const changed = await patch({
      settings: { region: 'us' },
      credentials: { api_key: `${API_KEY}-2` },
    });
    expect(changed.status).toBe(200);
    expect(changed.body).toMatchObject({
      type: 'bell',
      credentials: { api_key: '***ef-2' },
      settings: { api_base_url: bell.baseUrl, region: 'us' },
    });
  });

  it("answers 422 at the field, in the FastAPI shape, for the carrier's settings and credentials", async () => {
    const { apiKey } = await t.createOrganization();
    const res = await create(apiKey, {
      type: 'bell',
      name: '',
      credentials: { api_key: 'secret-value-1234', pin: '98765432' },
      settings: { api_base_url: bell.baseUrl, region: 'mars' },
    });
    expect(res.status).toBe(422);
    expect(res.body).toEqual({
      detail: [
        {
          type: 'string_too_short',
          loc: ['body', 'name'],
          msg: 'String should have at least 1 character',
          input: '',
          ctx: { min_length: 1 },
        },
        {
          type: 'extra_forbidden',
          loc: ['body', 'credentials', 'pin'],
          msg: 'Extra inputs are not permitted',
          input: '***',
        },
        {
          type: 'value_error',
          loc: ['body', 'settings', 'region'],
          msg: 'Value error, region must be us or eu',
          input: 'mars',
          ctx: { error: {} },
        },
      ],
    });
    const missing = await create(apiKey, { type: 'bell', name: 'Bell' });
    expect(missing.status).toBe(422);
    expect(missing.body.detail).toEqual([
      {
        type: 'missing',
        loc: ['body', 'credentials'],
        msg: 'Field required',
        input: { type: '***', name: '***' },
      },
      {
        type: 'value_error',
        loc: ['body', 'settings', 'api_base_url'],
        msg: 'Value error, an http(s) URL is required',
        ctx: { error: {} },
      },
    ]);
    const unknown = await create(apiKey, { type: 'morse', name: 'Morse' });
    expect(unknown.status).toBe(422);
    expect(unknown.body.detail[0]).toMatchObject({ type: 'enum', loc: ['body', 'type'] });
  });

  it('places a call through the carrier and reads its event back on the connection', async () => {
    const { apiKey } = await t.createOrganization();
    const connectionId = await t.connect(apiKey, {
      type: 'bell',
      credentials: { api_key: API_KEY },
      settings: { api_base_url: bell.baseUrl },
    });
    const call = await t.placeCall(apiKey, { provider_connection_id: connectionId });
    expect(call.providerCallId).toMatch(/^bell-/);
    const placed = bell.requests.find(
      (r) => r.path === '/calls' && r.rawBody.includes(`"${call.callLogId}"`),
    );
    expect(placed?.headers.authorization).toBe(`Bearer ${API_KEY}`);
    expect(JSON.parse(placed!.rawBody)).toEqual({
      to: expect.stringMatching(/^\+1555/),
      callback_url: `${t.baseUrl}/api/v1/telephony/${connectionId}/events`,
      reference: String(call.callLogId),
    });

    expect(
      await bell.complete(call.providerCallId, 'answered', 'a-wrong-key-of-the-same-size'),
    ).toBe(401);
    expect(await bell.complete(call.providerCallId, 'answered')).toBe(200);
    const target = await waitFor(
      () => t.target(apiKey, call.targetId),
      (x) => x.status === 'Finished',
    );
    expect(target).toMatchObject({ status: 'Finished', output_data: { bell_result: 'answered' } });
    const log = await t.callLog(call.callLogId);
    expect(log).toMatchObject({ provider: connectionId, provider_call_id: call.providerCallId });
    expect(await t.storedEvents(call.callLogId)).toBe(1);
  });
});
