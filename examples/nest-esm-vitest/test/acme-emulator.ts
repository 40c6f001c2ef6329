/**
 * Acme Voice as its (imaginary) documentation describes it, on a local port: `POST /v1/calls` (Bearer
 * key) answers `201 {call_id}`, then posts `call.answered` and `call.completed` to the call's
 * `callback_url`, signed `Acme-Signature: hex(HMAC-SHA256(secret, body))`. Numbers ending in 0000 do
 * not answer; every other one answers.
 */
import { createHmac, randomUUID } from 'node:crypto';
import { createServer, IncomingMessage, Server } from 'node:http';
import { AddressInfo } from 'node:net';

export interface AcmeCall {
  call_id: string;
  to: string;
  from: string;
  reference: string;
  callback_url: string;
  events: { status: number }[];
}

export class AcmeEmulator {
  readonly apiKey = 'acme-test-key';
  readonly signingSecret = 'acme-signing-secret';
  readonly calls: AcmeCall[] = [];
  private server: Server | null = null;
  private sending = new Set<Promise<void>>();
  /** Where the service really listens (its PUBLIC_BASE_URL may be another address). */
  serviceOrigin: string | null = null;

  async start(): Promise<string> {
    this.server = createServer(async (req, res) => {
      const body = await read(req);
      if (req.headers.authorization !== `Bearer ${this.apiKey}`) {
        res.writeHead(401).end();
        return;
      }
      if (req.method === 'POST' && req.url === '/v1/calls') {
        const request = JSON.parse(body);
        const call: AcmeCall = {
          call_id: `acme-${randomUUID()}`,
          ...request,
          events: [],
        };
        this.calls.push(call);
        res.writeHead(201, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ call_id: call.call_id }));
        this.track(this.play(call));
        return;
      }
      res.writeHead(404).end();
    });
    await new Promise<void>((resolve) =>
      this.server!.listen(0, '127.0.0.1', resolve),
    );
    return `http://127.0.0.1:${(this.server!.address() as AddressInfo).port}`;
  }

  async stop(): Promise<void> {
    await Promise.all(this.sending);
    await new Promise((resolve) => this.server?.close(resolve));
  }

  private track(sending: Promise<void>): void {
    this.sending.add(sending);
    void sending.finally(() => this.sending.delete(sending));
  }

  private async play(call: AcmeCall): Promise<void> {
    const answered = !call.to.endsWith('0000');
    const at = new Date().toISOString();
    if (answered) {
      await this.post(call, { type: 'call.answered', at });
    }
    await this.post(call, {
      type: 'call.completed',
      at,
      disposition: answered ? 'answered' : 'no_answer',
      duration_seconds: answered ? 42 : 0,
      transcript: answered
        ? [
            {
              speaker: 'agent',
              text: 'Hello, this is Acme calling about your appointment.',
            },
            { speaker: 'callee', text: 'Yes, I will be there.' },
          ]
        : [],
    });
  }

  private async post(
    call: AcmeCall,
    event: Record<string, unknown>,
  ): Promise<void> {
    const body = JSON.stringify({
      event_id: randomUUID(),
      call_id: call.call_id,
      reference: call.reference,
      ...event,
    });
    const url = new URL(call.callback_url);
    const target = this.serviceOrigin
      ? `${this.serviceOrigin}${url.pathname}`
      : url.toString();
    const res = await fetch(target, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        'acme-signature': createHmac('sha256', this.signingSecret)
          .update(body)
          .digest('hex'),
      },
      body,
    });
    call.events.push({ status: res.status });
  }
}

function read(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}
