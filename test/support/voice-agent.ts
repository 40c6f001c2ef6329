import { randomUUID } from 'crypto';
import { createServer, IncomingMessage, Server, ServerResponse } from 'http';
import { AddressInfo } from 'net';
import { Webhook } from 'standardwebhooks';

/** A call request as the service sends it (docs/voice-agent-protocol.md). */
export interface AgentCallRequest {
  type: 'call.requested';
  call_log_id: number;
  target_id: string;
  campaign_id: string;
  campaign_type: string;
  attempt: number;
  to: string;
  from: string;
  input_data: Record<string, unknown>;
  events_url: string;
}

export interface SignedRequest {
  headers: Record<string, string>;
  body: string;
}

/** How the agent answers call requests: with a call id, an error status, or never. */
export type AgentMode = 'answer' | 'fail' | 'hang';

/**
 * A voice agent as docs/voice-agent-protocol.md describes it, on 127.0.0.1: it verifies the
 * service's Standard Webhooks signature on every request (401 otherwise), answers call requests with
 * its call id, and offers `GET /calls/{id}` from what `calls` holds. Events are signed by `signEvent`
 * and posted by the test (to whichever API process it likes).
 */
export class LocalVoiceAgent {
  readonly requests: AgentCallRequest[] = [];
  readonly rejected: number[] = [];
  /** What `GET /calls/{id}` answers (an event body); absent: 404. */
  readonly calls = new Map<string, Record<string, unknown>>();
  mode: AgentMode = 'answer';
  url = '';
  private readonly webhook: Webhook;
  private readonly server: Server;
  private readonly hanging = new Set<ServerResponse>();
  private listeners: (() => void)[] = [];

  private constructor(readonly secret: string) {
    this.webhook = new Webhook(secret);
    this.server = createServer((req, res) => this.handle(req, res));
  }

  static async start(secret = `whsec_${Buffer.from(randomUUID()).toString('base64')}`) {
    const agent = new LocalVoiceAgent(secret);
    await new Promise<void>((resolve) => agent.server.listen(0, '127.0.0.1', resolve));
    agent.url = `http://127.0.0.1:${(agent.server.address() as AddressInfo).port}`;
    return agent;
  }

  /** The call id this agent gave the request of `callLogId`. */
  callIdOf(callLogId: number): string {
    return `agent-call-${callLogId}`;
  }

  async waitForRequests(n: number, timeoutMs = 20_000): Promise<AgentCallRequest[]> {
    const deadline = Date.now() + timeoutMs;
    while (this.requests.length < n) {
      if (Date.now() > deadline)
        throw new Error(`agent got ${this.requests.length} of ${n} requests`);
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, 200);
        this.listeners.push(() => {
          clearTimeout(timer);
          resolve();
        });
      });
    }
    return this.requests;
  }

  /** A signed event request; `at` lets a test send a stale one. */
  signEvent(body: Record<string, unknown>, at = new Date(), secret = this.secret): SignedRequest {
    return this.sign(JSON.stringify(body), 'application/json', at, secret);
  }

  /** Any body, signed as the agent signs. */
  sign(text: string, contentType: string, at = new Date(), secret = this.secret): SignedRequest {
    const id = `evt-${randomUUID()}`;
    return {
      body: text,
      headers: {
        'content-type': contentType,
        'webhook-id': id,
        'webhook-timestamp': String(Math.floor(at.getTime() / 1000)),
        'webhook-signature': new Webhook(secret).sign(id, at, text),
      },
    };
  }

  async close(): Promise<void> {
    this.hanging.forEach((res) => res.destroy());
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  private handle(req: IncomingMessage, res: ServerResponse): void {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      try {
        this.webhook.verify(body, req.headers as Record<string, string>);
      } catch {
        this.rejected.push(Date.now());
        res.writeHead(401).end();
        return;
      }
      if (req.method === 'GET') {
        const id = decodeURIComponent((req.url ?? '').replace(/^\/calls\//, ''));
        const call = this.calls.get(id);
        if (!call) res.writeHead(404).end();
        else res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(call));
        return;
      }
      const request = JSON.parse(body) as AgentCallRequest;
      this.requests.push(request);
      this.listeners.splice(0).forEach((l) => l());
      if (this.mode === 'hang') {
        this.hanging.add(res);
        return;
      }
      if (this.mode === 'fail') {
        res.writeHead(503).end();
        return;
      }
      res
        .writeHead(200, { 'content-type': 'application/json' })
        .end(JSON.stringify({ call_id: this.callIdOf(request.call_log_id) }));
    });
  }
}
