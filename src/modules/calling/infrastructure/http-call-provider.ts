import { randomUUID } from 'crypto';
import { Webhook } from 'standardwebhooks';
import { InvalidInputError, UnauthorizedError } from '../../../common/errors/domain-errors.js';
import {
  CallEvent,
  CallProvider,
  CallRef,
  CallResult,
  ProviderRequest,
  StartCallRequest,
} from '../../telephony/application/ports/call-provider.js';
import { CALL_OUTCOMES, CallOutcome } from '../../telephony/domain/call-outcome.js';
import { isRecord } from '../../provider-connection/domain/call-result.js';

export interface HttpCallProviderOptions {
  /** The connection name: `http` for CALL_PROVIDER, a connection id for an organization's own agent. */
  name?: string;
  /** Where call requests go (POST); `GET {agentUrl}/calls/{id}` is asked for calls past their deadline. */
  agentUrl: string;
  /** `whsec_...`: signs our requests and verifies the agent's events (Standard Webhooks). */
  secret: string;
  timeoutMs?: number;
  /** How requests reach the agent: an organization's connection passes one bound to the destination policy. */
  fetch?: typeof fetch;
}

/** The body of an agent's event (docs/voice-agent-protocol.md). */
interface AgentEvent {
  type?: unknown;
  call_id?: unknown;
  call_log_id?: unknown;
  timestamp?: unknown;
  outcome?: unknown;
  ended_reason?: unknown;
  duration_seconds?: unknown;
  transcript?: unknown;
  recording_urls?: unknown;
  output_data?: unknown;
  subcategory?: unknown;
  summary?: unknown;
  agent_data?: unknown;
}

const KINDS: Record<string, CallEvent['kind']> = {
  'call.started': 'started',
  'call.ended': 'ended',
};

/**
 * `CALL_PROVIDER=http`: a voice agent of your own (Pipecat, Vocode, LiveKit, an in-house bot) behind
 * one URL. We POST it a signed call request; it answers 2xx with its call id at once and later posts
 * signed `call.started` / `call.ended` events to the events URL. See docs/voice-agent-protocol.md.
 */
export class HttpCallProvider extends CallProvider {
  readonly name: string;
  private readonly webhook: Webhook;
  private readonly agentUrl: string;

  constructor(private readonly options: HttpCallProviderOptions) {
    super();
    this.name = options.name ?? 'http';
    this.webhook = new Webhook(options.secret);
    this.agentUrl = options.agentUrl.replace(/\/$/, '');
  }

  async startCall(request: StartCallRequest): Promise<{ providerCallId: string }> {
    const body = JSON.stringify({
      type: 'call.requested',
      call_log_id: request.callLogId,
      target_id: request.targetId,
      campaign_id: request.campaignId,
      campaign_type: request.campaignType,
      attempt: request.attempt,
      to: request.to,
      from: request.from,
      input_data: request.inputData,
      events_url: request.eventsUrl,
    });
    // One id per attempt: an agent that sees it twice (a retried request) must not dial twice.
    const res = await this.send('POST', this.agentUrl, `call-${request.callLogId}`, body);
    if (res.status < 200 || res.status >= 300) {
      throw new Error(`agent answered ${res.status} to the call request`);
    }
    const answer = (await res.json().catch(() => null)) as { call_id?: unknown } | null;
    if (typeof answer?.call_id !== 'string' || answer.call_id === '') {
      throw new Error('agent answered without a call_id');
    }
    return { providerCallId: answer.call_id };
  }

  async getCall(ref: CallRef): Promise<CallEvent | null> {
    const url = ref.providerCallId
      ? `${this.agentUrl}/calls/${encodeURIComponent(ref.providerCallId)}`
      : `${this.agentUrl}/calls?call_log_id=${ref.callLogId}`;
    const res = await this.send('GET', url, `get-${randomUUID()}`, '');
    // Optional in the protocol: an agent without it (404, 405, 501) cannot tell.
    if (res.status !== 200) return null;
    const body = (await res.json().catch(() => null)) as AgentEvent | null;
    if (!body || typeof body !== 'object') return null;
    return toEvent(body);
  }

  async readEvents(request: ProviderRequest): Promise<CallEvent[]> {
    const payload = request.rawBody.toString('utf8');
    try {
      // Verification only: the body is parsed below, as JSON or as a form.
      this.webhook.verify(payload, request.headers, { jsonParse: false });
    } catch {
      throw new UnauthorizedError('Invalid or stale signature');
    }
    const body = request.contentType.includes('application/x-www-form-urlencoded')
      ? Object.fromEntries(new URLSearchParams(payload))
      : parseJson(payload);
    return [toEvent(body)];
  }

  private async send(method: 'GET' | 'POST', url: string, id: string, body: string) {
    const headers: Record<string, string> = {
      'webhook-id': id,
      'webhook-timestamp': String(Math.floor(Date.now() / 1000)),
      'webhook-signature': this.webhook.sign(id, new Date(), body),
    };
    if (method === 'POST') headers['content-type'] = 'application/json';
    return (this.options.fetch ?? fetch)(url, {
      method,
      headers,
      body: method === 'POST' ? body : undefined,
      signal: AbortSignal.timeout(this.options.timeoutMs ?? 10_000),
    });
  }
}

function parseJson(payload: string): AgentEvent {
  try {
    const value = JSON.parse(payload) as unknown;
    if (isRecord(value)) return value as AgentEvent;
  } catch {
    // reported below
  }
  throw new InvalidInputError('Input should be a JSON object', [], payload);
}

function toEvent(body: AgentEvent): CallEvent {
  const kind = typeof body.type === 'string' ? KINDS[body.type] : undefined;
  if (!kind) {
    throw new InvalidInputError(
      "type should be 'call.started' or 'call.ended'",
      ['body', 'type'],
      body.type,
    );
  }
  const callId = typeof body.call_id === 'string' && body.call_id !== '' ? body.call_id : null;
  const callLogId = Number(body.call_log_id);
  const ourId =
    body.call_log_id === undefined || !Number.isSafeInteger(callLogId) ? null : callLogId;
  if (callId === null && ourId === null) {
    throw new InvalidInputError('call_id or call_log_id is required', [], body);
  }
  const event: CallEvent = {
    key: `${callId ?? `log-${ourId}`}:${kind}`,
    kind,
    providerCallId: callId,
    callLogId: ourId,
    // Checked, and replaced by the receipt time when it is not a time, where every event is ingested.
    at: typeof body.timestamp === 'string' ? new Date(body.timestamp) : null,
  };
  if (kind === 'ended') event.result = toResult(body);
  return event;
}

function toResult(body: AgentEvent): CallResult {
  const outcome = body.outcome as CallOutcome;
  if (!(CALL_OUTCOMES as readonly unknown[]).includes(outcome)) {
    throw new InvalidInputError(
      `outcome should be one of ${CALL_OUTCOMES.join(', ')}`,
      ['body', 'outcome'],
      body.outcome,
    );
  }
  const transcript = Array.isArray(body.transcript)
    ? body.transcript.filter((t): t is Record<string, string> => isRecord(t))
    : [];
  const summary = typeof body.summary === 'string' ? body.summary : null;
  return {
    outcome,
    endedReason: typeof body.ended_reason === 'string' ? body.ended_reason : 'agent-ended-call',
    durationSeconds: Math.max(0, Number(body.duration_seconds) || 0),
    transcripts: transcript,
    agentData: isRecord(body.agent_data) ? body.agent_data : {},
    postCallData: summary === null ? null : { summary },
    qa: null,
    recordingUrls: Array.isArray(body.recording_urls)
      ? body.recording_urls.filter((u): u is string => typeof u === 'string')
      : [],
    outputData: isRecord(body.output_data) ? body.output_data : {},
    subcategory: typeof body.subcategory === 'string' ? body.subcategory : null,
  };
}
