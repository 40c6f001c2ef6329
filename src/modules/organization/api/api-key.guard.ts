import { CanActivate, ExecutionContext, Inject, Injectable } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import type { Request, Response } from 'express';
import { UnauthorizedError } from '../../../common/errors/domain-errors.js';
import { AuthContext, IS_PUBLIC } from '../../../common/http/auth.decorators.js';
import {
  AuthFailureLimiter,
  clientAddress,
  tooManyRequests,
} from '../../../common/http/auth-failure-limiter.js';
import { RATE_COUNTERS, type RateCounters } from '../../../common/http/rate-counters.js';
import { AppConfig } from '../../../config/app-config.js';
import { OrganizationService } from '../application/organization.service.js';
import { displayPrefix } from '../domain/api-key.js';

/**
 * `X-API-Key: <key>` or `Authorization: Bearer <key>` on every route not marked @Public(), and the
 * two rate limits that go with it, counted in this process (see docs/operations.md):
 * - RATE_LIMIT_REQUESTS per RATE_LIMIT_WINDOW for each API key;
 * - AUTH_FAILURE_LIMIT failed authentications per window for each client address and for each key
 *   prefix (`AuthFailureLimiter`); past it those failures get 429. The key is always looked at
 *   first: a valid key is never refused for anyone's failures.
 */
@Injectable()
export class ApiKeyGuard implements CanActivate {
  constructor(
    private readonly reflector: Reflector,
    private readonly organizations: OrganizationService,
    @Inject(RATE_COUNTERS) private readonly counters: RateCounters,
    private readonly failures: AuthFailureLimiter,
    private readonly config: AppConfig,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    if (
      this.reflector.getAllAndOverride<boolean>(IS_PUBLIC, [
        context.getHandler(),
        context.getClass(),
      ])
    ) {
      return true;
    }
    const http = context.switchToHttp();
    const req = http.getRequest<Request & { auth?: AuthContext }>();
    const res = http.getResponse<Response>();
    const key = extractKey(req);
    try {
      req.auth = await this.organizations.authenticate(key);
    } catch (err) {
      if (err instanceof UnauthorizedError) {
        const subjects = [`address:${clientAddress(req)}`];
        // Another organization's bad keys never share a prefix with yours: theirs alone are limited.
        if (key) subjects.push(`api-key:${displayPrefix(key)}`);
        await this.failures.fail(subjects, res);
      }
      throw err;
    }
    await this.limitKey(req.auth.apiKeyId, res);
    return true;
  }

  private async limitKey(apiKeyId: string, res: Response): Promise<void> {
    const limit = this.config.get('RATE_LIMIT_REQUESTS');
    if (limit === 0) return;
    const { isBlocked, timeToBlockExpire } = await this.counters.increment(
      `api-key:${apiKeyId}`,
      this.config.get('RATE_LIMIT_WINDOW'),
      limit,
      0,
      'api-key',
    );
    if (isBlocked) tooManyRequests(res, timeToBlockExpire);
  }
}

function extractKey(req: Request): string | undefined {
  const header = req.headers['x-api-key'];
  if (typeof header === 'string' && header.trim()) return header.trim();
  const authorization = req.headers.authorization;
  const match = authorization ? /^Bearer\s+(.+)$/i.exec(authorization) : null;
  return match?.[1].trim();
}
