import { CanActivate, ExecutionContext, Inject, Injectable } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { timingSafeEqual } from 'crypto';
import type { Request, Response } from 'express';
import {
  mayDo,
  ORGANIZATION_WIDE,
  type Permission,
  roleRefusal,
  scopeRefusal,
} from '../../../common/auth/access.js';
import { reachesCampaign } from '../../../common/auth/auth-context.js';
import {
  ForbiddenError,
  NotFoundError,
  UnauthorizedError,
} from '../../../common/errors/domain-errors.js';
import {
  AuthContext,
  CAMPAIGN_SCOPE,
  IS_PUBLIC,
  REQUIRED_PERMISSION,
} from '../../../common/http/auth.decorators.js';
import { isUuid } from '../../../common/ids/canonical-uuid.js';
import {
  AuthFailureLimiter,
  clientAddress,
  tooManyRequests,
} from '../../../common/http/auth-failure-limiter.js';
import { RATE_COUNTERS, type RateCounters } from '../../../common/http/rate-counters.js';
import { AUDIT_SPEC, type AuditSpec } from '../../../common/audit/audit.decorators.js';
import { AppConfig } from '../../../config/app-config.js';
import { RequestAuditService } from '../../audit/application/request-audit.service.js';
import { OrganizationService } from '../application/organization.service.js';
import { SessionService } from '../application/session.service.js';
import { displayPrefix } from '../domain/api-key.js';
import { CSRF_HEADER, isSafeMethod, sessionToken } from './session-cookie.js';

export const SECOND_FACTOR_FIRST =
  'Your organization requires a second factor: set it up (POST /api/v1/me/totp) before anything else';
export const CSRF_REFUSAL =
  'A signed-in request that changes something must carry the X-CSRF-Token header given at sign-in';

/**
 * `X-API-Key: <key>` or `Authorization: Bearer <key>` on every route not marked @Public(), or else a
 * signed-in person's session cookie (with the CSRF header on requests that change something), and
 * the two rate limits that go with it, counted in this process (see docs/operations.md):
 * - RATE_LIMIT_REQUESTS per RATE_LIMIT_WINDOW for each API key or person;
 * - AUTH_FAILURE_LIMIT failed authentications per window for each client address and for each key
 *   prefix (`AuthFailureLimiter`); past it those failures get 429. The key is always looked at
 *   first: a valid key is never refused for anyone's failures.
 *
 * Then the route's permission against the key's role (403), and a campaign-limited key's campaigns:
 * a `campaign_id` in the path it does not reach is 404, as a campaign of another organization is.
 * This is the one place access is decided, and so where refusals are recorded in the audit trail.
 */
@Injectable()
export class ApiKeyGuard implements CanActivate {
  constructor(
    private readonly reflector: Reflector,
    private readonly organizations: OrganizationService,
    private readonly sessions: SessionService,
    @Inject(RATE_COUNTERS) private readonly counters: RateCounters,
    private readonly failures: AuthFailureLimiter,
    private readonly config: AppConfig,
    private readonly audit: RequestAuditService,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const routeTargets = [context.getHandler(), context.getClass()];
    if (this.reflector.getAllAndOverride<boolean>(IS_PUBLIC, routeTargets)) return true;
    const http = context.switchToHttp();
    const req = http.getRequest<Request & { auth?: AuthContext }>();
    const res = http.getResponse<Response>();
    const key = extractKey(req);
    const session = key ? undefined : sessionToken(req);
    if (session) req.auth = await this.sessions.authenticate(session);
    else await this.authenticateKey(req, res, key);
    const authed = req as Request & { auth: AuthContext };
    await this.limitCredential(authed.auth.principal.id, res);
    try {
      if (session) this.checkCsrf(authed);
      this.authorize(context, authed);
    } catch (err) {
      // Every refusal is in the audit trail, committed before the 403 is answered.
      if (err instanceof ForbiddenError) {
        const spec = this.reflector.get<AuditSpec | undefined>(AUDIT_SPEC, context.getHandler());
        await this.audit.refused(authed, spec, `${req.method} ${routePath(req)}`, err.message);
      }
      throw err;
    }
    return true;
  }

  /**
   * A request signed in by its cookie that changes something must carry the session's CSRF token
   * (a header a cross-site form cannot set); keys sent in a header need none.
   */
  private checkCsrf(req: Request & { auth: AuthContext }): void {
    if (isSafeMethod(req.method)) return;
    const sent = req.headers[CSRF_HEADER];
    const expected = req.auth.session!.csrfToken;
    if (
      typeof sent !== 'string' ||
      sent.length !== expected.length ||
      !timingSafeEqual(Buffer.from(sent), Buffer.from(expected))
    ) {
      throw new ForbiddenError(CSRF_REFUSAL);
    }
  }

  private async authenticateKey(
    req: Request & { auth?: AuthContext },
    res: Response,
    key: string | undefined,
  ): Promise<void> {
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
  }

  private authorize(context: ExecutionContext, req: Request & { auth: AuthContext }): void {
    const targets = [context.getHandler(), context.getClass()];
    const permission = this.reflector.getAllAndOverride<Permission | undefined>(
      REQUIRED_PERMISSION,
      targets,
    );
    // Fails closed: a route someone forgot to declare is refused, and the route-table test fails.
    if (!permission) {
      throw new ForbiddenError(
        `${req.method} ${req.path} declares no permission: refused to every role`,
      );
    }
    const { auth } = req;
    if (!mayDo(auth.role, permission)) throw new ForbiddenError(roleRefusal(auth.role, permission));
    const session = auth.session;
    if (session?.totpRequired && !session.totpEnabled && permission !== 'self.session') {
      throw new ForbiddenError(SECOND_FACTOR_FIRST);
    }
    if (auth.campaignIds === null) return;
    if (ORGANIZATION_WIDE.has(permission)) throw new ForbiddenError(scopeRefusal(permission));
    const campaignId = (req.params as Record<string, string | undefined>).campaign_id;
    if (campaignId !== undefined) {
      // A malformed id goes on to validation: it names no campaign anyway.
      if (isUuid(campaignId) && !reachesCampaign(auth, campaignId)) {
        throw new NotFoundError(`Campaign ${campaignId} not found`);
      }
      return;
    }
    if (!this.reflector.getAllAndOverride<string | undefined>(CAMPAIGN_SCOPE, targets)) {
      throw new ForbiddenError(scopeRefusal(permission));
    }
  }

  private async limitCredential(principalId: string, res: Response): Promise<void> {
    const limit = this.config.get('RATE_LIMIT_REQUESTS');
    if (limit === 0) return;
    const { isBlocked, timeToBlockExpire } = await this.counters.increment(
      `api-key:${principalId}`,
      this.config.get('RATE_LIMIT_WINDOW'),
      limit,
      0,
      'api-key',
    );
    if (isBlocked) tooManyRequests(res, timeToBlockExpire);
  }
}

/** The route's pattern (`/api/v1/targets/:target_id`), not the path with its ids. */
function routePath(req: Request): string {
  const route = (req as { route?: { path?: string } }).route;
  return (req.baseUrl ?? '') + (route?.path ?? req.path);
}

function extractKey(req: Request): string | undefined {
  const header = req.headers['x-api-key'];
  if (typeof header === 'string' && header.trim()) return header.trim();
  const authorization = req.headers.authorization;
  const match = authorization ? /^Bearer\s+(.+)$/i.exec(authorization) : null;
  return match?.[1].trim();
}
