import { Injectable } from '@nestjs/common';
import http from 'http';
import https from 'https';
import { SERVICE_PACKAGE } from '../../../common/package/service-package.js';
import { Webhook } from 'standardwebhooks';
import {
  pinnedLookup,
  RefusedDestinationError,
  ResolvedAddress,
  resolveDestination,
  Resolver,
  systemResolve,
  withDeadline,
} from '../../../common/net/outbound-destination.js';
import {
  WebhookRequest,
  WebhookResponse,
  WebhookSender,
} from '../application/ports/webhook-sender.js';
import { RESPONSE_EXCERPT_BYTES } from '../domain/webhook-delivery.js';

export interface HttpWebhookSenderOptions {
  timeoutMs: number;
  allowPrivate: boolean;
  /** Host name to addresses; the system resolver unless a test replaces it. */
  resolve?: Resolver;
}

/** Past this much of a response body the connection is dropped instead of drained for reuse. */
const MAX_DRAIN_BYTES = 64 * 1024;

/** Standard Webhooks headers: the same webhook-id on every attempt, a fresh timestamp and signature. */
function signedHeaders(request: WebhookRequest): Record<string, string> {
  return {
    'webhook-id': request.messageId,
    'webhook-timestamp': String(Math.floor(request.sentAt.getTime() / 1000)),
    'webhook-signature': new Webhook(request.secret).sign(
      request.messageId,
      request.sentAt,
      request.body,
    ),
  };
}

export const USER_AGENT = `campaign-calling-service/${SERVICE_PACKAGE.version}`;

/**
 * POSTs with node's http(s) client. The destination host is resolved once, every address checked
 * against the private-range policy, and the connection pinned to the checked address
 * (`resolveDestination`, shared with the provider clients). TLS still verifies the certificate
 * against the URL's host name.
 */
@Injectable()
export class HttpWebhookSender extends WebhookSender {
  private readonly resolve: Resolver;

  constructor(private readonly options: HttpWebhookSenderOptions) {
    super();
    this.resolve = options.resolve ?? systemResolve;
  }

  async send(request: WebhookRequest): Promise<WebhookResponse> {
    const started = process.hrtime.bigint();
    const elapsed = () => Number((process.hrtime.bigint() - started) / 1_000_000n);
    const deadline = Date.now() + this.options.timeoutMs;
    try {
      const url = new URL(request.url);
      const destination = await resolveDestination(url, {
        allowPrivate: this.options.allowPrivate,
        setting: 'WEBHOOK_ALLOW_PRIVATE',
        resolve: (host) => withDeadline(this.resolve(host), deadline, 'DNS lookup'),
      });
      const headers = signedHeaders(request);
      const response = await this.post(url, destination, request.body, headers, deadline);
      return { ...response, durationMs: elapsed() };
    } catch (err) {
      const error =
        err instanceof RefusedDestinationError ? `refused: ${err.message}` : describe(err);
      return { statusCode: null, error, responseExcerpt: null, durationMs: elapsed() };
    }
  }

  private post(
    url: URL,
    destination: ResolvedAddress,
    body: string,
    signed: Record<string, string>,
    deadline: number,
  ): Promise<Omit<WebhookResponse, 'durationMs'>> {
    const client = url.protocol === 'https:' ? https : http;
    return new Promise((resolve, reject) => {
      const remaining = Math.max(1, deadline - Date.now());
      const timer = setTimeout(
        () => req.destroy(new Error(`timed out after ${this.options.timeoutMs} ms`)),
        remaining,
      );
      const req = client.request(
        url,
        {
          method: 'POST',
          lookup: pinnedLookup(destination),
          headers: {
            ...signed,
            'content-type': 'application/json',
            'user-agent': USER_AGENT,
            'content-length': Buffer.byteLength(body),
          },
        },
        (res) => {
          const chunks: Buffer[] = [];
          let kept = 0;
          let seen = 0;
          res.on('data', (chunk: Buffer) => {
            seen += chunk.length;
            if (kept < RESPONSE_EXCERPT_BYTES) {
              const part = chunk.subarray(0, RESPONSE_EXCERPT_BYTES - kept);
              chunks.push(part);
              kept += part.length;
            }
            if (seen > MAX_DRAIN_BYTES) res.destroy();
          });
          const finish = () => {
            clearTimeout(timer);
            // PostgreSQL text cannot hold NUL characters.
            const excerpt = Buffer.concat(chunks).toString('utf8').split('\u0000').join('');
            resolve({
              statusCode: res.statusCode ?? null,
              error: null,
              responseExcerpt: excerpt || null,
            });
          };
          res.on('end', finish);
          // A receiver that answered and then closed (or a body too large to drain) still answered.
          res.on('close', finish);
          res.on('error', () => finish());
        },
      );
      req.on('error', (err) => {
        clearTimeout(timer);
        reject(err);
      });
      req.end(body);
    });
  }
}

function describe(err: unknown): string {
  // Duck-typed: errors from node's core may come from another realm (instanceof Error fails there).
  const { message, code } = (err ?? {}) as { message?: unknown; code?: unknown };
  if (typeof message !== 'string' || message === '') return String(err);
  return typeof code === 'string' && !message.includes(code) ? `${code}: ${message}` : message;
}
