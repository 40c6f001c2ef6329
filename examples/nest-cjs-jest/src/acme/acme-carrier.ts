/**
 * Acme Voice, an imaginary carrier: calls placed over Acme's REST API, the events Acme posts back read
 * and checked (HMAC-SHA256). Nothing of the service is edited. The carrier is a `CallProvider`; as
 * `AcmeVoiceProvider` it is a connection type organizations create connections of
 * (`POST /api/v1/provider-connections` with `type: "acme"`), and as `AcmeCallProviders` (the
 * `CallProviders` port) it takes every campaign's calls without connections (the tests bind it so).
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import {
  CallEvent,
  CallOutcome,
  CallProvider,
  CallProviders,
  CallResult,
  type ConnectionSettings,
  InvalidInputError,
  ProviderRequest,
  type ResolvedConnection,
  type SettingProblem,
  StartCallRequest,
  UnauthorizedError,
  VoiceProvider,
} from 'campaign-calling-service';

export interface AcmeSettings {
  /** The `{connection}` of its events route (`/api/v1/telephony/{connection}/events`). */
  name?: string;
  /** Acme's API, e.g. `https://api.acme-voice.example`. */
  baseUrl: string;
  apiKey: string;
  /** What Acme signs its events with (`Acme-Signature: hex(HMAC-SHA256(secret, body))`). */
  signingSecret: string;
}

/** Acme's event body. */
interface AcmeEvent {
  event_id: string;
  type: 'call.answered' | 'call.completed';
  call_id: string;
  reference: string | null;
  at: string;
  disposition?: 'answered' | 'no_answer' | 'voicemail' | 'failed';
  duration_seconds?: number;
  transcript?: { speaker: 'agent' | 'callee'; text: string }[];
}

const OUTCOMES: Record<NonNullable<AcmeEvent['disposition']>, CallOutcome> = {
  answered: 'GOOD',
  no_answer: 'NO_RESPONSE',
  voicemail: 'VOICEMAIL',
  failed: 'TECHNICAL_FAILURE',
};

/** Acme's settings checked before use: a clear error naming the field, not a failed call later. */
export function checkAcmeSettings(
  settings: Partial<AcmeSettings>,
): AcmeSettings {
  for (const field of ['baseUrl', 'apiKey', 'signingSecret'] as const) {
    if (typeof settings[field] !== 'string' || settings[field] === '') {
      throw new InvalidInputError(
        'Field required',
        ['acme', field],
        settings[field],
      );
    }
  }
  if (!/^https?:\/\//.test(settings.baseUrl!)) {
    throw new InvalidInputError(
      'must be an http(s) URL',
      ['acme', 'baseUrl'],
      settings.baseUrl,
    );
  }
  return settings as AcmeSettings;
}

export class AcmeCallProvider extends CallProvider {
  /** Acme posts to /api/v1/telephony/{name}/events: `acme`, or a connection's id. */
  readonly name: string;
  private readonly settings: AcmeSettings;

  constructor(settings: Partial<AcmeSettings>) {
    super();
    this.settings = checkAcmeSettings(settings);
    this.name = settings.name ?? 'acme';
  }

  async startCall(
    request: StartCallRequest,
  ): Promise<{ providerCallId: string }> {
    const res = await fetch(`${this.settings.baseUrl}/v1/calls`, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${this.settings.apiKey}`,
        'content-type': 'application/json',
      },
      body: JSON.stringify({
        to: request.to,
        from: request.from,
        callback_url: request.eventsUrl,
        reference: String(request.callLogId),
        metadata: request.inputData,
      }),
    });
    // Throwing ends the attempt as a technical failure (the service retries as the campaign says).
    if (res.status !== 201)
      throw new Error(`Acme refused the call: ${res.status}`);
    const body = (await res.json()) as { call_id: string };
    return { providerCallId: body.call_id };
  }

  async getCall(ref: {
    providerCallId: string | null;
    callLogId: number;
  }): Promise<CallEvent | null> {
    if (!ref.providerCallId) return null;
    const res = await fetch(
      `${this.settings.baseUrl}/v1/calls/${ref.providerCallId}`,
      {
        headers: { authorization: `Bearer ${this.settings.apiKey}` },
      },
    );
    if (res.status === 404) return null;
    const call = (await res.json()) as { last_event: AcmeEvent | null };
    return call.last_event ? this.toEvent(call.last_event) : null;
  }

  async readEvents(request: ProviderRequest): Promise<CallEvent[]> {
    const expected = createHmac('sha256', this.settings.signingSecret)
      .update(request.rawBody)
      .digest();
    const given = Buffer.from(request.headers['acme-signature'] ?? '', 'hex');
    if (given.length !== expected.length || !timingSafeEqual(given, expected)) {
      throw new UnauthorizedError('Invalid Acme signature');
    }
    const event = JSON.parse(request.rawBody.toString('utf8')) as AcmeEvent;
    return [this.toEvent(event)];
  }

  private toEvent(event: AcmeEvent): CallEvent {
    const base = {
      key: event.event_id,
      providerCallId: event.call_id,
      callLogId: event.reference === null ? null : Number(event.reference),
      at: new Date(event.at),
    };
    if (event.type === 'call.answered') return { ...base, kind: 'started' };
    const outcome = OUTCOMES[event.disposition ?? 'failed'];
    const result: CallResult = {
      outcome,
      endedReason: `acme:${event.disposition ?? 'failed'}`,
      durationSeconds: event.duration_seconds ?? 0,
      transcripts: (event.transcript ?? []).map((line) => ({
        role: line.speaker === 'agent' ? 'assistant' : 'user',
        message: line.text,
      })),
      agentData: { carrier: 'acme' },
      postCallData: null,
      qa: null,
      recordingUrls: [],
      outputData: { acme_disposition: event.disposition ?? 'failed' },
    };
    return { ...base, kind: 'ended', result };
  }
}

// #region call-providers
/** Every campaign's calls go through Acme; its events come back on the `acme` connection. */
export class AcmeCallProviders extends CallProviders {
  constructor(private readonly acme: AcmeCallProvider) {
    super();
  }

  async forCampaign(): Promise<CallProvider> {
    return this.acme;
  }

  async get(connection: string): Promise<CallProvider | null> {
    return connection === this.acme.name ? this.acme : null;
  }
}
// #endregion call-providers

// #region voice-provider
/**
 * Acme as a connection type: an organization creates a connection with its own Acme key and signing
 * secret (sealed by the service, shown masked) and Acme's API address; campaigns using it call through
 * Acme, and Acme posts that connection's events to its `events_url_path`.
 */
export class AcmeVoiceProvider extends VoiceProvider {
  readonly type = 'acme';
  readonly credentialFields = ['api_key', 'signing_secret'];
  readonly settingFields = ['api_base_url'];

  checkSettings(settings: ConnectionSettings): SettingProblem[] {
    return /^https?:\/\//.test(String(settings.api_base_url ?? ''))
      ? []
      : [
          {
            field: 'api_base_url',
            message: "Acme's API address, an http(s) URL, is required",
          },
        ];
  }

  connect(connection: ResolvedConnection): CallProvider {
    return new AcmeCallProvider({
      name: connection.id,
      baseUrl: String(connection.settings.api_base_url),
      apiKey: connection.credentials.api_key,
      signingSecret: connection.credentials.signing_secret,
    });
  }
}
// #endregion voice-provider
