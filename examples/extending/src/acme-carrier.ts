/**
 * A voice provider for Acme Voice, an imaginary carrier: it places calls over Acme's REST API and reads
 * the events Acme posts back, signed with HMAC-SHA256. Nothing of the service is edited: the carrier is
 * a `CallProvider`, and `AcmeCallProviders` (the `CallProviders` port) sends every campaign's calls to it.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import {
  CallEvent,
  CallOutcome,
  CallProvider,
  CallProviders,
  CallResult,
  InvalidInputError,
  ProviderRequest,
  StartCallRequest,
  UnauthorizedError,
} from 'campaign-calling-service';

export interface AcmeSettings {
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
export function checkAcmeSettings(settings: Partial<AcmeSettings>): AcmeSettings {
  for (const field of ['baseUrl', 'apiKey', 'signingSecret'] as const) {
    if (typeof settings[field] !== 'string' || settings[field] === '') {
      throw new InvalidInputError('Field required', ['acme', field], settings[field]);
    }
  }
  if (!/^https?:\/\//.test(settings.baseUrl!)) {
    throw new InvalidInputError('must be an http(s) URL', ['acme', 'baseUrl'], settings.baseUrl);
  }
  return settings as AcmeSettings;
}

export class AcmeCallProvider extends CallProvider {
  /** The `{connection}` of the events route: Acme posts to /api/v1/telephony/acme/events. */
  readonly name = 'acme';
  private readonly settings: AcmeSettings;

  constructor(settings: Partial<AcmeSettings>) {
    super();
    this.settings = checkAcmeSettings(settings);
  }

  async startCall(request: StartCallRequest): Promise<{ providerCallId: string }> {
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
    if (res.status !== 201) throw new Error(`Acme refused the call: ${res.status}`);
    const body = (await res.json()) as { call_id: string };
    return { providerCallId: body.call_id };
  }

  async getCall(ref: {
    providerCallId: string | null;
    callLogId: number;
  }): Promise<CallEvent | null> {
    if (!ref.providerCallId) return null;
    const res = await fetch(`${this.settings.baseUrl}/v1/calls/${ref.providerCallId}`, {
      headers: { authorization: `Bearer ${this.settings.apiKey}` },
    });
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
