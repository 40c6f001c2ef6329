import { Injectable } from '@nestjs/common';
import type { AuditedRequest, AuditSpec } from '../../../common/audit/audit.decorators.js';
import type { AuthContext } from '../../../common/auth/auth-context.js';
import { canonicalJson, type AuditEventInput } from '../domain/audit-event.js';
import { AuditTrailService } from './audit-trail.service.js';

/** What this reads of an HTTP request once authenticated (Express's request has all of it). */
export interface AuthedRequest {
  auth: AuthContext;
  method: string;
  params?: unknown;
  query?: unknown;
  body?: unknown;
  ip?: string;
  socket?: { remoteAddress?: string };
  /** Set by assignRequestId. */
  id?: unknown;
}

/**
 * Turns an HTTP request (and its answer) into the audit event its route declares: who (the
 * AuthContext's principal and role), from where (client address, request id), what and which
 * resource. Used by the AuditInterceptor for what was answered and by the guard for refusals.
 */
@Injectable()
export class RequestAuditService {
  constructor(private readonly trail: AuditTrailService) {}

  /** An answered request: resolves once its event is committed. */
  allowed(
    req: AuthedRequest,
    spec: AuditSpec,
    action: string,
    result: unknown,
    before?: unknown,
  ): Promise<void> {
    const r = audited(req);
    const answer = isObject(result) ? result : {};
    const isChange = req.method !== 'GET';
    let changedFields = isChange ? (spec.fields?.(r) ?? bodyKeys(r.body)) : [];
    let changes: AuditEventInput['changes'] = null;
    if (spec.values) {
      const previous = isObject(before) ? before : null;
      // Fields sent with the value they already had did not change.
      changedFields = changedFields.filter(
        (f) => !previous || canonicalJson(previous[f]) !== canonicalJson(answer[f]),
      );
      // A secret an answer shows once (a new key, a webhook secret) is named, never kept.
      changes = Object.fromEntries(
        changedFields
          .filter((f) => !SECRET_FIELDS.has(f))
          .map((f) => [f, { before: previous?.[f] ?? null, after: answer[f] ?? null }]),
      );
    }
    return this.trail.record({
      ...this.base(req, spec.resource, action, 'allowed'),
      resourceId: text(spec.id ? spec.id(r, result) : r.params[`${spec.resource}_id`]),
      campaignId: text(
        spec.campaign ? spec.campaign(r, result) : (r.params.campaign_id ?? answer.campaign_id),
      ),
      resourceIds: (spec.ids?.(r, result) ?? []).map((id) => String(id)),
      changedFields,
      changes,
      detail: Object.keys(r.query).length > 0 ? { query: r.query } : null,
    });
  }

  /** A request refused (403) by role or campaign scope: recorded before the refusal is answered. */
  refused(req: AuthedRequest, spec: AuditSpec | undefined, route: string, reason: string) {
    const r = audited(req);
    const resource = spec?.resource ?? 'route';
    return this.trail.record({
      ...this.base(req, resource, spec?.action ?? 'access.refused', 'refused'),
      resourceId: text(r.params[`${resource}_id`]),
      campaignId: text(r.params.campaign_id),
      detail: { route, reason },
    });
  }

  private base(
    req: AuthedRequest,
    resourceType: string,
    action: string,
    outcome: 'allowed' | 'refused',
  ) {
    const { auth } = req;
    return {
      organizationId: auth.organizationId,
      actor: { ...auth.principal, role: auth.role },
      action,
      resourceType,
      outcome,
      clientAddress: req.ip ?? req.socket?.remoteAddress ?? null,
      requestId: req.id != null ? String(req.id) : null,
    };
  }
}

/** Fields whose values never go into an event, whatever a body sends. */
const SECRET_FIELDS: ReadonlySet<string> = new Set([
  'key',
  'secret',
  'webhook_secret',
  'password',
  'token',
  'auth_token',
  'credentials',
]);

function audited(req: AuthedRequest): AuditedRequest {
  return {
    params: (req.params ?? {}) as Record<string, string | undefined>,
    query: (req.query ?? {}) as Record<string, unknown>,
    body: req.body,
  };
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function bodyKeys(body: unknown): string[] {
  return isObject(body) ? Object.keys(body) : [];
}

function text(value: unknown): string | null {
  return typeof value === 'string' || typeof value === 'number' ? String(value) : null;
}
