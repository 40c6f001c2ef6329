import { Injectable } from '@nestjs/common';
import { lookup as dnsLookup } from 'dns/promises';
import { readFileSync } from 'fs';
import http from 'http';
import https from 'https';
import { LookupFunction } from 'net';
import { dirname, join } from 'path';
import { Webhook } from 'standardwebhooks';
import {
  WebhookRequest,
  WebhookResponse,
  WebhookSender,
} from '../application/ports/webhook-sender.js';
import { RESPONSE_EXCERPT_BYTES } from '../domain/webhook-delivery.js';
import { blockedReason } from './address-policy.js';

export interface ResolvedAddress {
  address: string;
  family: number;
}

export interface HttpWebhookSenderOptions {
  timeoutMs: number;
  allowPrivate: boolean;
  /** Host name to addresses; the system resolver unless a test replaces it. */
  resolve?: (host: string) => Promise<ResolvedAddress[]>;
}

const systemResolve = (host: string): Promise<ResolvedAddress[]> =>
  dnsLookup(host, { all: true, verbatim: true });

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

export const USER_AGENT = `campaign-calling-service/${packageVersion()}`;

/**
 * POSTs with node's http(s) client. The destination host is resolved once, every address checked
 * against the private-range policy, and the connection pinned to the checked address through a custom
 * `lookup`, so a DNS answer that changes between the check and the connect (rebinding) cannot reach
 * an internal address. TLS still verifies the certificate against the URL's host name.
 */
@Injectable()
export class HttpWebhookSender extends WebhookSender {
  private readonly resolve: (host: string) => Promise<ResolvedAddress[]>;

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
      if (url.protocol !== 'http:' && url.protocol !== 'https:') {
        return refused(`refused: ${url.protocol} is not http or https`, elapsed());
      }
      const host = url.hostname.replace(/^\[|\]$/g, '');
      const resolved = await withDeadline(this.resolve(host), deadline, 'DNS lookup');
      if (resolved.length === 0)
        return refused(`DNS lookup of ${host} returned no address`, elapsed());
      if (!this.options.allowPrivate) {
        for (const { address } of resolved) {
          const reason = blockedReason(address);
          if (reason !== null) {
            return refused(
              `refused: ${host} resolves to ${address}, a ${reason} address (WEBHOOK_ALLOW_PRIVATE is off)`,
              elapsed(),
            );
          }
        }
      }
      const { address, family } = resolved[0];
      const headers = signedHeaders(request);
      const response = await this.post(url, address, family, request.body, headers, deadline);
      return { ...response, durationMs: elapsed() };
    } catch (err) {
      return {
        statusCode: null,
        error: describe(err),
        responseExcerpt: null,
        durationMs: elapsed(),
      };
    }
  }

  private post(
    url: URL,
    address: string,
    family: number,
    body: string,
    signed: Record<string, string>,
    deadline: number,
  ): Promise<Omit<WebhookResponse, 'durationMs'>> {
    const pinned: LookupFunction = (_hostname, options, callback) => {
      if ((options as { all?: boolean }).all) (callback as any)(null, [{ address, family }]);
      else callback(null, address, family);
    };
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
          lookup: pinned,
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

function refused(error: string, durationMs: number): WebhookResponse {
  return { statusCode: null, error, responseExcerpt: null, durationMs };
}

function withDeadline<T>(promise: Promise<T>, deadline: number, what: string): Promise<T> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new Error(`${what} timed out`)),
      Math.max(1, deadline - Date.now()),
    );
    promise.then(
      (v) => (clearTimeout(timer), resolve(v)),
      (e) => (clearTimeout(timer), reject(e)),
    );
  });
}

function describe(err: unknown): string {
  // Duck-typed: errors from node's core may come from another realm (instanceof Error fails there).
  const { message, code } = (err ?? {}) as { message?: unknown; code?: unknown };
  if (typeof message !== 'string' || message === '') return String(err);
  return typeof code === 'string' && !message.includes(code) ? `${code}: ${message}` : message;
}

function packageVersion(): string {
  let dir = import.meta.dirname;
  for (let i = 0; i < 6; i++) {
    try {
      const pkg = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8'));
      if (pkg.name === 'campaign-calling-service') return String(pkg.version);
    } catch {
      // keep looking upwards
    }
    dir = dirname(dir);
  }
  return process.env.npm_package_version ?? '0.0.0';
}
