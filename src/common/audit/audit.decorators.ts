import { SetMetadata } from '@nestjs/common';
import type { AuthContext } from '../auth/auth-context.js';

export const AUDIT_SPEC = 'auditSpec';
export const NOT_AUDITED = 'notAudited';

/** What the audit interceptor sees of a request it records. */
export interface AuditedRequest {
  params: Record<string, string | undefined>;
  query: Record<string, unknown>;
  body: unknown;
}

/**
 * How a route is recorded in the audit trail (see the AuditInterceptor of src/modules/audit). Every
 * field but `action` and `resource` has a default that fits most routes.
 */
export interface AuditSpec<C = unknown> {
  /** The action name (one of AUDIT_ACTIONS): `target.read`, `policy.update`, ... */
  action: string;
  /** The type of resource the route reads or changes: `target`, `policy`, ... */
  resource: string;
  /**
   * Another action when the request asks for more (a call log with its recordings); null keeps
   * `action`.
   */
  refine?: (req: AuditedRequest) => string | null;
  /**
   * The resource's id: by default the path parameter `<resource>_id`; a function reads it from the
   * request and the answer (a resource just created).
   */
  id?: (req: AuditedRequest, result: unknown) => string | null | undefined;
  /** Every resource a list page, an export or a batch change returned or named. */
  ids?: (req: AuditedRequest, result: unknown) => readonly unknown[] | null | undefined;
  /** The campaign: by default the path's `campaign_id`, else the answer's `campaign_id`. */
  campaign?: (req: AuditedRequest, result: unknown) => string | null | undefined;
  /**
   * For a change, the fields it named: by default the request body's keys (never their values,
   * which may be patient data).
   */
  fields?: (req: AuditedRequest) => string[];
  /**
   * For a change of fields that are not patient data (policy, campaign settings, roles): record
   * each changed field's value before (what `before` reads, before the handler runs; null for a
   * creation) and after (the answer's).
   */
  values?: { before?: (controller: C, auth: AuthContext, req: AuditedRequest) => Promise<unknown> };
  /**
   * The action of a CSV download of this route (`Accept: text/csv`). Such an answer is streamed, so
   * its event is written before the handler runs, naming the filters rather than the rows.
   */
  csvExport?: string;
  /** Query parameters worth keeping with the event (a list's filters), by name. */
  query?: readonly string[];
}

/**
 * The audit action of a route that reads patient data or changes anything: its event is committed
 * before the answer leaves, and a failed write fails the request. Declared beside
 * `@RequiresPermission`; a test built from the route table fails for a route with neither this nor
 * `@NotAudited`, and for a change or patient read marked `@NotAudited`.
 */
export const Audit = <C = unknown>(spec: AuditSpec<C>) => SetMetadata(AUDIT_SPEC, spec);

/**
 * A read that returns no patient data (a campaign's settings, its statistics, the policy): not
 * recorded, but for a refusal (403), which is always recorded.
 */
export const NotAudited = () => SetMetadata(NOT_AUDITED, true);

/** The `field` of each item of the answer's `list` (a list page's ids), for `ids`. */
export const listedIds =
  (list: string, field = 'id') =>
  (_req: AuditedRequest, result: unknown): unknown[] | undefined => {
    const items = (result as Record<string, unknown> | undefined)?.[list];
    return Array.isArray(items)
      ? items.map((item) => (item as Record<string, unknown>)[field])
      : undefined;
  };

/** One field of the answer (a created resource's id), for `id` or `campaign`. */
export const answerField =
  (field: string) =>
  (_req: AuditedRequest, result: unknown): string | undefined => {
    const value = (result as Record<string, unknown> | undefined)?.[field];
    return value === undefined || value === null ? undefined : String(value);
  };

/** A list in the request body (the ids a batch change names), or each item's `item` field, for `ids`. */
export const bodyList =
  (field: string, item?: string) =>
  (req: AuditedRequest): unknown[] | undefined => {
    const value = (req.body as Record<string, unknown> | undefined)?.[field];
    if (!Array.isArray(value)) return undefined;
    return item ? value.map((v) => (v as Record<string, unknown> | null)?.[item]) : value;
  };
