import { createServer, IncomingHttpHeaders, Server, ServerResponse } from 'http';
import { AddressInfo } from 'net';

export interface ReceivedWebhook {
  headers: IncomingHttpHeaders;
  body: string;
  receivedAt: Date;
}

export interface ReceiverReply {
  status: number;
  body?: string;
}

/**
 * Decides the answer to the n-th request (0-based). Return a reply, or a promise of one to hold the
 * request open (e.g. until a worker has been killed).
 */
export type ReceiverBehaviour = (
  request: ReceivedWebhook,
  index: number,
) => ReceiverReply | Promise<ReceiverReply>;

/** A local HTTP endpoint on 127.0.0.1 that records what it is sent, for webhook tests and benchmarks. */
export class WebhookReceiver {
  readonly received: ReceivedWebhook[] = [];
  /** Requests counted without keeping them (benchmarks). */
  count = 0;
  url = '';
  private readonly server: Server;
  private readonly open = new Set<ServerResponse>();
  private listeners: (() => void)[] = [];

  private constructor(
    private behaviour: ReceiverBehaviour,
    private readonly keep: boolean,
  ) {
    this.server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        const request = {
          headers: req.headers,
          body: Buffer.concat(chunks).toString('utf8'),
          receivedAt: new Date(),
        };
        const index = this.count++;
        if (this.keep) this.received.push(request);
        this.listeners.forEach((l) => l());
        this.open.add(res);
        res.on('close', () => this.open.delete(res));
        Promise.resolve(this.behaviour(request, index)).then(
          (reply) => {
            if (res.destroyed) return;
            res.writeHead(reply.status, { 'content-type': 'text/plain' });
            res.end(reply.body ?? '');
          },
          () => res.destroy(),
        );
      });
    });
    this.server.keepAliveTimeout = 5000;
  }

  static async start(
    behaviour: ReceiverBehaviour = () => ({ status: 200, body: 'ok' }),
    options: { path?: string; keep?: boolean } = {},
  ): Promise<WebhookReceiver> {
    const receiver = new WebhookReceiver(behaviour, options.keep ?? true);
    await new Promise<void>((resolve) => receiver.server.listen(0, '127.0.0.1', resolve));
    const { port } = receiver.server.address() as AddressInfo;
    receiver.url = `http://127.0.0.1:${port}${options.path ?? '/hook'}`;
    return receiver;
  }

  /**
   * A receiver that holds its first request open until `release` is called (to kill or stop the worker
   * sending it meanwhile) and answers 200 to every other.
   */
  static async holdingFirst(): Promise<{ receiver: WebhookReceiver; release: () => void }> {
    let release: () => void = () => undefined;
    const held = new Promise<ReceiverReply>(
      (resolve) => (release = () => resolve({ status: 200 })),
    );
    const receiver = await WebhookReceiver.start((_req, index) =>
      index === 0 ? held : { status: 200 },
    );
    return { receiver, release: () => release() };
  }

  /** A URL on 127.0.0.1 where nothing listens (connection refused). */
  static async deadUrl(): Promise<string> {
    const server = createServer();
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    await new Promise<void>((resolve) => server.close(() => resolve()));
    return `http://127.0.0.1:${port}/hook`;
  }

  respondWith(behaviour: ReceiverBehaviour): void {
    this.behaviour = behaviour;
  }

  /** Resolves once `count` requests have arrived (with the kept ones). */
  waitForRequests(count: number, timeoutMs = 20_000): Promise<ReceivedWebhook[]> {
    return new Promise((resolve, reject) => {
      const check = () => {
        if (this.count >= count) {
          clearTimeout(timer);
          this.listeners = this.listeners.filter((l) => l !== check);
          resolve(this.received.slice());
        }
      };
      const timer = setTimeout(() => {
        this.listeners = this.listeners.filter((l) => l !== check);
        reject(new Error(`receiver: ${this.count} of ${count} requests after ${timeoutMs} ms`));
      }, timeoutMs);
      this.listeners.push(check);
      check();
    });
  }

  async close(): Promise<void> {
    for (const res of this.open) res.destroy();
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}

/** The receivers a suite starts, closed together in its `afterAll`. */
export class WebhookReceivers {
  private readonly started: WebhookReceiver[] = [];

  async start(...args: Parameters<typeof WebhookReceiver.start>): Promise<WebhookReceiver> {
    const receiver = await WebhookReceiver.start(...args);
    this.started.push(receiver);
    return receiver;
  }

  async closeAll(): Promise<void> {
    await Promise.all(this.started.map((r) => r.close()));
  }
}
