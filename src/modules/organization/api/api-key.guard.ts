import {
  CanActivate,
  ExecutionContext,
  HttpException,
  HttpStatus,
  Injectable,
} from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { ThrottlerStorageService } from '@nestjs/throttler';
import type { Request, Response } from 'express';
import { UnauthorizedError } from '../../../common/errors/domain-errors.js';
import { AuthContext, IS_PUBLIC } from '../../../common/http/auth.decorators.js';
import { AppConfig } from '../../../config/app-config.js';
import { OrganizationService } from '../application/organization.service.js';

/**
 * `X-API-Key: <key>` or `Authorization: Bearer <key>` on every route not marked @Public(), and the
 * two rate limits that go with it, counted in this process (see docs/operations.md):
 * - RATE_LIMIT_REQUESTS per RATE_LIMIT_WINDOW for each API key;
 * - AUTH_FAILURE_LIMIT failed authentications per window for each client address; past it the
 *   address gets 429 without its key being looked at, so keys cannot be guessed at speed.
 */
@Injectable()
export class ApiKeyGuard implements CanActivate {
  /** Addresses over the failure limit, until when. */
  private readonly blockedUntil = new Map<string, number>();

  constructor(
    private readonly reflector: Reflector,
    private readonly organizations: OrganizationService,
    private readonly counters: ThrottlerStorageService,
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
    const address = req.ip ?? req.socket.remoteAddress ?? 'unknown';
    this.refuseBlockedAddress(address, res);
    try {
      req.auth = await this.organizations.authenticate(extractKey(req));
    } catch (err) {
      if (err instanceof UnauthorizedError) await this.countFailure(address, res);
      throw err;
    }
    await this.limitKey(req.auth.apiKeyId, res);
    return true;
  }

  private refuseBlockedAddress(address: string, res: Response): void {
    const until = this.blockedUntil.get(address);
    if (until === undefined) return;
    const left = until - Date.now();
    if (left <= 0) this.blockedUntil.delete(address);
    else tooManyRequests(res, Math.ceil(left / 1000));
  }

  private async countFailure(address: string, res: Response): Promise<void> {
    const limit = this.config.get('AUTH_FAILURE_LIMIT');
    if (limit === 0) return;
    const window = this.config.get('RATE_LIMIT_WINDOW');
    // Blocking mode: past the limit the address stays refused for a whole window.
    const { isBlocked, timeToBlockExpire } = await this.counters.increment(
      `auth-failures:${address}`,
      window,
      limit,
      window,
      'auth-failures',
    );
    if (isBlocked) {
      this.blockedUntil.set(address, Date.now() + timeToBlockExpire * 1000);
      tooManyRequests(res, timeToBlockExpire);
    }
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

function tooManyRequests(res: Response, retryAfterSeconds: number): never {
  res.setHeader('Retry-After', String(Math.max(1, retryAfterSeconds)));
  throw new HttpException('Too Many Requests', HttpStatus.TOO_MANY_REQUESTS);
}

function extractKey(req: Request): string | undefined {
  const header = req.headers['x-api-key'];
  if (typeof header === 'string' && header.trim()) return header.trim();
  const authorization = req.headers.authorization;
  const match = authorization ? /^Bearer\s+(.+)$/i.exec(authorization) : null;
  return match?.[1].trim();
}
