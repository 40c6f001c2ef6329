import type { Request } from 'express';
import { UnauthorizedError } from '../errors/domain-errors.js';
import { AuthFailureLimiter, clientAddress } from './auth-failure-limiter.js';

/** A provider's request to a telephony route, as received (the raw body is what providers sign). */
export interface SignedProviderRequest {
  rawBody: Buffer;
  contentType: string;
  /** Lower-case header names. */
  headers: Record<string, string>;
  /** The URL as the provider called it (PUBLIC_BASE_URL + path + query): Twilio signs it. */
  url: string;
}

export function signedProviderRequest(req: Request, publicBaseUrl: string): SignedProviderRequest {
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(req.headers)) {
    if (value !== undefined) headers[name] = Array.isArray(value) ? value.join(', ') : value;
  }
  return {
    // The service keeps these bodies raw (configureApp); an app of a team's own that imports the
    // module keeps them with Nest's `rawBody: true` instead.
    rawBody: Buffer.isBuffer(req.body)
      ? req.body
      : ((req as Request & { rawBody?: Buffer }).rawBody ?? Buffer.alloc(0)),
    contentType: headers['content-type'] ?? '',
    headers,
    // The URL we gave the provider (Twilio signs it): behind a proxy the Host header is not it.
    url: `${publicBaseUrl}${req.originalUrl}`,
  };
}

/**
 * `read`'s answer; a failed signature (UnauthorizedError) is a failed authentication, counted per
 * address and per connection as bad API keys are, then thrown. A valid signature is never refused
 * for them.
 */
export async function countingSignatureFailures<T>(
  read: Promise<T>,
  failures: AuthFailureLimiter,
  req: Request,
  connection: string,
): Promise<T> {
  try {
    return await read;
  } catch (err) {
    if (err instanceof UnauthorizedError) {
      await failures.fail([`address:${clientAddress(req)}`, `connection:${connection}`], req.res!);
    }
    throw err;
  }
}
