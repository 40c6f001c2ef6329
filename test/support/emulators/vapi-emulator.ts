import { randomUUID } from 'crypto';
import {
  bearerToken,
  EmulatorReply,
  EmulatorRequest,
  ProviderEmulator,
  PostedEvent,
  Route,
} from './emulator-server.js';

/**
 * Vapi, as its public API reference describes it: `POST /call` (bearer API key) creates an outbound
 * phone call with an assistant and a phone number id, `GET /call/{id}` reads it back, and server
 * messages (`status-update`, `end-of-call-report`) are posted as `{"message": {...}}` to the server
 * URL (the call's `assistantOverrides.server.url`, else the one set in the console), authenticated
 * by the server secret in the `X-Vapi-Secret` header.
 */
export interface VapiEmulatedCall {
  id: string;
  request: Record<string, any>;
  status: string;
  endedReason: string | null;
  startedAt: string | null;
  endedAt: string | null;
  artifact: Record<string, unknown> | null;
  analysis: Record<string, unknown> | null;
}

export interface VapiEnding {
  endedReason: string;
  durationSeconds?: number;
  transcript?: { role: 'bot' | 'user'; message: string }[];
  recordingUrl?: string;
  analysis?: {
    summary?: string;
    structuredData?: Record<string, unknown>;
    successEvaluation?: string;
  };
}

export class VapiEmulator extends ProviderEmulator {
  readonly orgId = randomUUID();
  readonly calls = new Map<string, VapiEmulatedCall>();

  constructor(
    private readonly apiKey: string,
    private readonly serverSecret: string,
    /** The console's server URL, used when a call names none. */
    private readonly consoleServerUrl: string | null = null,
  ) {
    super();
  }

  protected routes(): [string, RegExp, Route][] {
    return [
      ['POST', /^\/call$/, (req) => this.authorized(req) ?? this.create(req)],
      ['GET', /^\/call\/([^/]+)$/, (req, [id]) => this.authorized(req) ?? this.fetch(id)],
    ];
  }

  /** The call rings, is answered (unless it never connects), and ends with its report. */
  async finish(id: string, ending: VapiEnding): Promise<PostedEvent[]> {
    const call = this.mustGet(id);
    const posted = [await this.postStatus(id, 'ringing')];
    const connected = !['customer-did-not-answer', 'customer-busy'].includes(ending.endedReason);
    const started = new Date();
    if (connected) {
      call.startedAt = started.toISOString();
      posted.push(await this.postStatus(id, 'in-progress'));
    }
    call.endedAt = new Date(started.getTime() + (ending.durationSeconds ?? 0) * 1000).toISOString();
    call.endedReason = ending.endedReason;
    call.artifact = {
      messages: (ending.transcript ?? []).map((t, i) => ({
        role: t.role,
        message: t.message,
        time: started.getTime() + i * 1000,
        endTime: started.getTime() + i * 1000 + 900,
        secondsFromStart: i,
      })),
      transcript: (ending.transcript ?? [])
        .map((t) => `${t.role === 'bot' ? 'AI' : 'User'}: ${t.message}`)
        .join('\n'),
      ...(ending.recordingUrl ? { recordingUrl: ending.recordingUrl } : {}),
    };
    call.analysis = ending.analysis ?? {};
    posted.push(await this.postStatus(id, 'ended'));
    posted.push(await this.postEndOfCallReport(id));
    return posted;
  }

  postStatus(id: string, status: string, options: { secret?: string } = {}) {
    const call = this.mustGet(id);
    call.status = status;
    return this.postMessage(
      call,
      {
        type: 'status-update',
        status,
        ...(status === 'ended' ? { endedReason: call.endedReason } : {}),
        timestamp: Date.now(),
        call: this.resource(call),
      },
      options,
    );
  }

  postEndOfCallReport(id: string, options: { secret?: string } = {}) {
    const call = this.mustGet(id);
    return this.postMessage(
      call,
      {
        type: 'end-of-call-report',
        endedReason: call.endedReason,
        startedAt: call.startedAt ?? undefined,
        endedAt: call.endedAt ?? undefined,
        timestamp: Date.now(),
        artifact: call.artifact ?? {},
        analysis: call.analysis ?? {},
        call: this.resource(call),
      },
      options,
    );
  }

  private postMessage(
    call: VapiEmulatedCall,
    message: Record<string, unknown>,
    options: { secret?: string },
  ): Promise<PostedEvent> {
    const url = call.request.assistantOverrides?.server?.url ?? this.consoleServerUrl;
    if (!url) throw new Error(`Vapi call ${call.id} has no server URL`);
    return this.post(
      url,
      { 'Content-Type': 'application/json', 'X-Vapi-Secret': options.secret ?? this.serverSecret },
      JSON.stringify({ message }),
    );
  }

  private authorized(req: EmulatorRequest): EmulatorReply | null {
    if (bearerToken(req.headers) === this.apiKey) return null;
    return {
      status: 401,
      body: { message: 'Invalid API key', error: 'Unauthorized', statusCode: 401 },
    };
  }

  private create(req: EmulatorRequest): EmulatorReply {
    const request = JSON.parse(req.rawBody || '{}') as Record<string, any>;
    const errors: string[] = [];
    if (!request.assistantId && !request.assistant)
      errors.push('assistantId or assistant must be provided');
    if (!request.phoneNumberId && !request.phoneNumber)
      errors.push('phoneNumberId or phoneNumber must be provided');
    if (!request.customer?.number) errors.push('customer.number must be provided');
    if (errors.length > 0) {
      return { status: 400, body: { message: errors, error: 'Bad Request', statusCode: 400 } };
    }
    const call: VapiEmulatedCall = {
      id: randomUUID(),
      request,
      status: 'queued',
      endedReason: null,
      startedAt: null,
      endedAt: null,
      artifact: null,
      analysis: null,
    };
    this.calls.set(call.id, call);
    return { status: 201, body: this.resource(call) };
  }

  private fetch(id: string): EmulatorReply {
    const call = this.calls.get(id);
    if (!call) return { status: 404, body: { message: 'Not Found', statusCode: 404 } };
    return { status: 200, body: this.resource(call) };
  }

  /** The Call object as the API returns it. */
  private resource(call: VapiEmulatedCall) {
    const now = new Date().toISOString();
    return {
      id: call.id,
      orgId: this.orgId,
      type: 'outboundPhoneCall',
      status: call.status,
      ...(call.endedReason ? { endedReason: call.endedReason } : {}),
      createdAt: now,
      updatedAt: now,
      ...(call.startedAt ? { startedAt: call.startedAt } : {}),
      ...(call.endedAt && call.status === 'ended' ? { endedAt: call.endedAt } : {}),
      assistantId: call.request.assistantId,
      phoneNumberId: call.request.phoneNumberId,
      customer: call.request.customer,
      ...(call.request.assistantOverrides
        ? { assistantOverrides: call.request.assistantOverrides }
        : {}),
      ...(call.artifact && call.status === 'ended' ? { artifact: call.artifact } : {}),
      ...(call.analysis && call.status === 'ended' ? { analysis: call.analysis } : {}),
    };
  }

  private mustGet(id: string): VapiEmulatedCall {
    const call = this.calls.get(id);
    if (!call) throw new Error(`No emulated Vapi call ${id}`);
    return call;
  }
}
