import { createServer, IncomingHttpHeaders, Server } from 'http';
import { AddressInfo } from 'net';
import { Webhook } from 'standardwebhooks';
import { ResolvedAddress } from '../../../common/net/outbound-destination.js';
import { HttpWebhookSender, USER_AGENT } from './http-webhook-sender.js';

interface Seen {
  headers: IncomingHttpHeaders;
  body: string;
}

describe('HttpWebhookSender', () => {
  let server: Server;
  let port: number;
  const seen: Seen[] = [];
  let reply: (res: import('http').ServerResponse) => void = (res) => res.end('ok');

  beforeAll(async () => {
    server = createServer((req, res) => {
      let body = '';
      req.on('data', (c) => (body += c));
      req.on('end', () => {
        seen.push({ headers: req.headers, body });
        reply(res);
      });
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    port = (server.address() as AddressInfo).port;
  });
  afterAll(async () => {
    server.closeAllConnections();
    await new Promise((r) => server.close(r));
  });
  beforeEach(() => {
    seen.length = 0;
    reply = (res) => res.end('ok');
  });

  const SECRET = 'whsec_' + Buffer.from('a test secret of 32 bytes length').toString('base64');
  const SENT_AT = new Date('2026-01-05T15:00:00Z');
  const request = (url: string) => ({
    url,
    body: '{"a":1}',
    messageId: 'evt_1',
    sentAt: SENT_AT,
    secret: SECRET,
  });

  it('POSTs the JSON body signed as Standard Webhooks, a User-Agent, and reports the status and a capped excerpt', async () => {
    reply = (res) => {
      res.writeHead(202);
      res.end('y'.repeat(3000));
    };
    const sender = new HttpWebhookSender({ timeoutMs: 2000, allowPrivate: true });
    const response = await sender.send(request(`http://127.0.0.1:${port}/hook`));
    expect(response).toEqual({
      statusCode: 202,
      error: null,
      responseExcerpt: 'y'.repeat(1024),
      durationMs: expect.any(Number),
    });
    expect(seen).toEqual([
      {
        body: '{"a":1}',
        headers: expect.objectContaining({
          'content-type': 'application/json',
          'content-length': '7',
          'user-agent': USER_AGENT,
          'webhook-id': 'evt_1',
          'webhook-timestamp': String(SENT_AT.getTime() / 1000),
          'webhook-signature': new Webhook(SECRET).sign('evt_1', SENT_AT, '{"a":1}'),
        }),
      },
    ]);
    expect(USER_AGENT).toMatch(/^campaign-calling-service\/\d+\.\d+\.\d+$/);
  });

  it('connects to the address it checked, without resolving the host again (no DNS rebinding)', async () => {
    const lookups: string[] = [];
    // A rebinding resolver: the first answer is the checked one, any later one would be different.
    const answers: ResolvedAddress[][] = [
      [{ address: '127.0.0.1', family: 4 }],
      [{ address: '10.9.9.9', family: 4 }],
    ];
    const sender = new HttpWebhookSender({
      timeoutMs: 2000,
      allowPrivate: true,
      resolve: async (host) => {
        lookups.push(host);
        return answers.shift()!;
      },
    });
    const response = await sender.send(request(`http://hooks.rebind.test:${port}/hook`));
    expect(response.statusCode).toBe(200);
    expect(lookups).toEqual(['hooks.rebind.test']);
    expect(seen[0].headers.host).toBe(`hooks.rebind.test:${port}`);
  });

  it('refuses a host when any of its addresses is private, without connecting', async () => {
    const sender = new HttpWebhookSender({
      timeoutMs: 2000,
      allowPrivate: false,
      resolve: async () => [
        { address: '93.184.216.34', family: 4 },
        { address: '10.0.0.1', family: 4 },
      ],
    });
    const response = await sender.send(request(`http://mixed.example.test:${port}/hook`));
    expect(response).toEqual({
      statusCode: null,
      error:
        'refused: mixed.example.test resolves to 10.0.0.1, a private address (WEBHOOK_ALLOW_PRIVATE is off)',
      responseExcerpt: null,
      durationMs: expect.any(Number),
    });
    expect(seen).toEqual([]);
  });

  it('refuses schemes other than http and https', async () => {
    const sender = new HttpWebhookSender({ timeoutMs: 2000, allowPrivate: true });
    expect((await sender.send(request('ftp://127.0.0.1/x'))).error).toBe(
      'refused: ftp: is not http or https',
    );
  });

  it('gives up after the timeout', async () => {
    reply = () => undefined; // never answers
    const sender = new HttpWebhookSender({ timeoutMs: 200, allowPrivate: true });
    const response = await sender.send(request(`http://127.0.0.1:${port}/slow`));
    expect(response).toMatchObject({
      statusCode: null,
      error: 'timed out after 200 ms',
      responseExcerpt: null,
    });
    expect(response.durationMs).toBeGreaterThanOrEqual(190);
  });

  it('reports DNS and connection failures as errors, never throws', async () => {
    const failing = new HttpWebhookSender({
      timeoutMs: 2000,
      allowPrivate: true,
      resolve: async () => {
        throw Object.assign(new Error('getaddrinfo ENOTFOUND nowhere.test'), { code: 'ENOTFOUND' });
      },
    });
    expect((await failing.send(request('http://nowhere.test/x'))).error).toBe(
      'getaddrinfo ENOTFOUND nowhere.test',
    );
    const dead = createServer();
    await new Promise<void>((r) => dead.listen(0, '127.0.0.1', r));
    const deadPort = (dead.address() as AddressInfo).port;
    await new Promise((r) => dead.close(r));
    const sender = new HttpWebhookSender({ timeoutMs: 2000, allowPrivate: true });
    expect((await sender.send(request(`http://127.0.0.1:${deadPort}/x`))).error).toBe(
      `connect ECONNREFUSED 127.0.0.1:${deadPort}`,
    );
  });
});
