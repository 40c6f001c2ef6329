import { HttpException, HttpStatus } from '@nestjs/common';
import type { RateCounters } from './rate-counters.js';
import type { Response } from 'express';

export interface AuthFailureLimits {
  /** Failed authentications one subject may have per window; 0: no limit. */
  limit: number;
  windowMs: number;
}

/**
 * Counts failed authentications (a wrong API key, a provider event whose signature does not verify)
 * per subject: the client address, and what the request claimed to be (an API key's prefix, a
 * provider connection). Past the limit a subject's failures are answered 429 for a whole window.
 * Only failures are counted and refused: a request that authenticates is never held back by anyone's
 * failures, its own address's included (keys are 256 random bits, so there is nothing to guess at
 * speed; the limit keeps a flood of bad keys from costing lookups and filling logs). Counted in this
 * process, in @nestjs/throttler's storage.
 */
export class AuthFailureLimiter {
  constructor(
    private readonly counters: RateCounters,
    private readonly limits: AuthFailureLimits,
  ) {}

  /** Counts one failure of each subject; throws 429 (with Retry-After) when any is past the limit. */
  async fail(subjects: string[], res: Response): Promise<void> {
    const { limit, windowMs } = this.limits;
    if (limit === 0) return;
    let retryAfter = 0;
    for (const subject of subjects) {
      // Blocking mode: past the limit the subject stays refused for a whole window.
      const { isBlocked, timeToBlockExpire } = await this.counters.increment(
        `auth-failures:${subject}`,
        windowMs,
        limit,
        windowMs,
        'auth-failures',
      );
      if (isBlocked) retryAfter = Math.max(retryAfter, timeToBlockExpire);
    }
    if (retryAfter > 0) tooManyRequests(res, retryAfter);
  }
}

export function tooManyRequests(res: Response, retryAfterSeconds: number): never {
  res.setHeader('Retry-After', String(Math.max(1, retryAfterSeconds)));
  throw new HttpException('Too Many Requests', HttpStatus.TOO_MANY_REQUESTS);
}

/** The client address Express worked out under TRUST_PROXY. */
export function clientAddress(req: { ip?: string; socket: { remoteAddress?: string } }): string {
  return req.ip ?? req.socket.remoteAddress ?? 'unknown';
}
