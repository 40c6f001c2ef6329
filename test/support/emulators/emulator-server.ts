import { createServer, IncomingHttpHeaders, Server } from 'http';
import { AddressInfo } from 'net';

/** A request an emulator received, as it arrived. */
export interface EmulatorRequest {
  method: string;
  path: string;
  headers: IncomingHttpHeaders;
  rawBody: string;
}

export interface EmulatorReply {
  status: number;
  body: unknown;
}

/** An event an emulator posted, and how the receiver answered it. */
export interface PostedEvent {
  url: string;
  headers: Record<string, string>;
  body: string;
  status: number;
}

export type Route = (req: EmulatorRequest, params: string[]) => EmulatorReply;

/**
 * What every provider emulator shares: a local HTTP server on 127.0.0.1 that records each request
 * and answers from the emulator's route table (method + path pattern), JSON bodies only, and posts
 * the provider's events.
 */
export abstract class ProviderEmulator {
  readonly requests: EmulatorRequest[] = [];
  readonly posted: PostedEvent[] = [];
  baseUrl = '';
  private server: Server | null = null;

  protected abstract routes(): [method: string, path: RegExp, route: Route][];

  async start(): Promise<this> {
    const routes = this.routes();
    this.server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        const request: EmulatorRequest = {
          method: req.method ?? 'GET',
          path: new URL(req.url ?? '/', 'http://emulator').pathname,
          headers: req.headers,
          rawBody: Buffer.concat(chunks).toString('utf8'),
        };
        this.requests.push(request);
        const reply = answer(routes, request);
        res.writeHead(reply.status, { 'Content-Type': 'application/json' });
        res.end(JSON.stringify(reply.body));
      });
    });
    await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', resolve));
    this.baseUrl = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
    return this;
  }

  async stop(): Promise<void> {
    if (!this.server) return;
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server!.close(() => resolve()));
    this.server = null;
  }

  /** POSTs an event as the provider would, recording it and the receiver's answer. */
  protected async post(
    url: string,
    headers: Record<string, string>,
    body: string,
  ): Promise<PostedEvent> {
    const res = await fetch(url, { method: 'POST', headers, body });
    await res.arrayBuffer();
    const posted = { url, headers, body, status: res.status };
    this.posted.push(posted);
    return posted;
  }
}

function answer(routes: [string, RegExp, Route][], request: EmulatorRequest): EmulatorReply {
  for (const [method, pattern, route] of routes) {
    const match = method === request.method ? pattern.exec(request.path) : null;
    if (match) return route(request, match.slice(1).map(decodeURIComponent));
  }
  return { status: 404, body: { message: `No route ${request.method} ${request.path}` } };
}

/** The bearer token of a request, or null. */
export function bearerToken(headers: IncomingHttpHeaders): string | null {
  const match = /^Bearer (.+)$/.exec(headers.authorization ?? '');
  return match ? match[1] : null;
}
