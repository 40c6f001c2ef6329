import { randomBytes } from 'crypto';
import Retell from 'retell-sdk';
import {
  bearerToken,
  EmulatorReply,
  EmulatorRequest,
  ProviderEmulator,
  PostedEvent,
  Route,
} from './emulator-server.js';

/**
 * Retell, as its public API reference describes it: `POST /v2/create-phone-call` and
 * `GET /v2/get-call/{call_id}` with the API key as bearer token, and webhooks (`call_started`,
 * `call_ended`, `call_analyzed`, each `{event, call}`) posted to the agent's webhook URL (or the
 * call's `agent_override.agent.webhook_url`), signed in
 * `x-retell-signature` with the API key (the `retell-sdk` package's `sign`).
 */
export interface RetellEmulatedCall {
  call_id: string;
  request: Record<string, any>;
  call_status: string;
  start_timestamp: number | null;
  end_timestamp: number | null;
  disconnection_reason: string | null;
  transcript_object: { role: 'agent' | 'user'; content: string }[];
  recording_url: string | null;
  call_analysis: Record<string, unknown> | null;
}

export interface RetellEnding {
  disconnectionReason: string;
  durationSeconds?: number;
  transcript?: { role: 'agent' | 'user'; content: string }[];
  recordingUrl?: string;
  analysis?: {
    call_summary?: string;
    in_voicemail?: boolean;
    user_sentiment?: string;
    call_successful?: boolean;
    custom_analysis_data?: Record<string, unknown>;
  };
}

const NEVER_CONNECTED = ['dial_no_answer', 'dial_busy', 'dial_failed', 'invalid_destination'];

export class RetellEmulator extends ProviderEmulator {
  readonly calls = new Map<string, RetellEmulatedCall>();

  constructor(
    private readonly apiKey: string,
    /** The agent's webhook URL, as set in the Retell dashboard. */
    public webhookUrl: string | null = null,
  ) {
    super();
  }

  protected routes(): [string, RegExp, Route][] {
    return [
      ['POST', /^\/v2\/create-phone-call$/, (req) => this.authorized(req) ?? this.create(req)],
      ['GET', /^\/v2\/get-call\/([^/]+)$/, (req, [id]) => this.authorized(req) ?? this.fetch(id)],
    ];
  }

  /**
   * Plays a call to its end: `call_started` (only when it connected), `call_ended`, then
   * `call_analyzed` unless `analyzed` is false (post-call analysis off).
   */
  async finish(callId: string, ending: RetellEnding, analyzed = true): Promise<PostedEvent[]> {
    const call = this.mustGet(callId);
    const posted: PostedEvent[] = [];
    const start = Date.now();
    if (!NEVER_CONNECTED.includes(ending.disconnectionReason)) {
      call.call_status = 'ongoing';
      call.start_timestamp = start;
      posted.push(await this.postEvent(callId, 'call_started'));
    }
    call.call_status = 'ended';
    call.end_timestamp = start + (ending.durationSeconds ?? 0) * 1000;
    call.disconnection_reason = ending.disconnectionReason;
    call.transcript_object = ending.transcript ?? [];
    call.recording_url = ending.recordingUrl ?? null;
    posted.push(await this.postEvent(callId, 'call_ended'));
    if (analyzed) {
      call.call_analysis = ending.analysis ?? {};
      posted.push(await this.postEvent(callId, 'call_analyzed'));
    }
    return posted;
  }

  /** Posts one webhook for the call, signed with `apiKey` (default: the account's). */
  async postEvent(
    callId: string,
    event: 'call_started' | 'call_ended' | 'call_analyzed',
    options: { apiKey?: string } = {},
  ): Promise<PostedEvent> {
    const emulated = this.mustGet(callId);
    // A per-call agent override wins over the agent's webhook URL from the dashboard.
    const url = emulated.request.agent_override?.agent?.webhook_url ?? this.webhookUrl;
    if (!url) throw new Error(`Retell call ${callId} has no webhook URL`);
    const call = this.resource(emulated);
    // call_ended carries everything but the analysis; call_started only the basics.
    if (event !== 'call_analyzed') delete call.call_analysis;
    const body = JSON.stringify({ event, call });
    const signature = await Retell.sign(body, options.apiKey ?? this.apiKey);
    return this.post(
      url,
      { 'Content-Type': 'application/json', 'x-retell-signature': signature },
      body,
    );
  }

  private authorized(req: EmulatorRequest): EmulatorReply | null {
    if (bearerToken(req.headers) === this.apiKey) return null;
    return { status: 401, body: { status: 'error', message: 'Unauthorized: invalid API key' } };
  }

  private create(req: EmulatorRequest): EmulatorReply {
    const request = JSON.parse(req.rawBody || '{}') as Record<string, any>;
    const missing = ['from_number', 'to_number'].filter((f) => typeof request[f] !== 'string');
    if (missing.length > 0) {
      return { status: 400, body: { status: 'error', message: `${missing[0]} is required` } };
    }
    const call: RetellEmulatedCall = {
      call_id: `call_${randomBytes(12).toString('hex')}`,
      request,
      call_status: 'registered',
      start_timestamp: null,
      end_timestamp: null,
      disconnection_reason: null,
      transcript_object: [],
      recording_url: null,
      call_analysis: null,
    };
    this.calls.set(call.call_id, call);
    return { status: 201, body: this.resource(call) };
  }

  private fetch(callId: string): EmulatorReply {
    const call = this.calls.get(callId);
    if (!call) return { status: 404, body: { status: 'error', message: 'Call not found' } };
    return { status: 200, body: this.resource(call) };
  }

  /** The call object as the API returns it. */
  private resource(call: RetellEmulatedCall): Record<string, unknown> {
    const ended = call.call_status === 'ended';
    return {
      call_id: call.call_id,
      call_type: 'phone_call',
      agent_id: call.request.override_agent_id ?? 'agent_default',
      call_status: call.call_status,
      direction: 'outbound',
      from_number: call.request.from_number,
      to_number: call.request.to_number,
      metadata: call.request.metadata ?? {},
      retell_llm_dynamic_variables: call.request.retell_llm_dynamic_variables ?? {},
      ...(call.start_timestamp ? { start_timestamp: call.start_timestamp } : {}),
      ...(ended
        ? {
            end_timestamp: call.end_timestamp,
            duration_ms: call.start_timestamp ? call.end_timestamp! - call.start_timestamp : 0,
            disconnection_reason: call.disconnection_reason,
            transcript: call.transcript_object
              .map((t) => `${t.role === 'agent' ? 'Agent' : 'User'}: ${t.content}`)
              .join('\n'),
            transcript_object: call.transcript_object.map((t) => ({ ...t, words: [] })),
            ...(call.recording_url ? { recording_url: call.recording_url } : {}),
          }
        : {}),
      ...(call.call_analysis ? { call_analysis: call.call_analysis } : {}),
    };
  }

  private mustGet(callId: string): RetellEmulatedCall {
    const call = this.calls.get(callId);
    if (!call) throw new Error(`No emulated Retell call ${callId}`);
    return call;
  }
}
