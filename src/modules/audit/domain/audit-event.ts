import { createHash } from 'crypto';

export type AuditOutcome = 'allowed' | 'refused';

/** Who acted, as the request's AuthContext names it (an API key today, a person who signs in too). */
export interface AuditActor {
  kind: string;
  id: string;
  name: string;
  role: string;
}

/** What one module hands `AuditTrailService.record`: an event before the trail numbers and chains it. */
export interface AuditEventInput {
  organizationId: string;
  actor: AuditActor;
  /** A name from AUDIT_ACTIONS (`target.read`, `policy.update`, ...). */
  action: string;
  resourceType: string;
  resourceId?: string | null;
  campaignId?: string | null;
  /** For a list page or an export: the ids of what it returned. */
  resourceIds?: string[];
  outcome: AuditOutcome;
  clientAddress?: string | null;
  requestId?: string | null;
  /** The fields a change named (values never, for patient data). */
  changedFields?: string[];
  /** For fields that are not patient data: `{ field: { before, after } }`. */
  changes?: Record<string, { before: unknown; after: unknown }> | null;
  /** What else places the event: the query of a list or export, why a request was refused. */
  detail?: Record<string, unknown> | null;
}

/** An event as stored: numbered per organization and chained to the one before it. */
export interface AuditEvent {
  id: string;
  organizationId: string;
  seq: number;
  occurredAt: Date;
  actor: AuditActor;
  action: string;
  resourceType: string;
  resourceId: string | null;
  campaignId: string | null;
  resourceIds: string[];
  outcome: AuditOutcome;
  clientAddress: string | null;
  requestId: string | null;
  changedFields: string[];
  changes: Record<string, { before: unknown; after: unknown }> | null;
  detail: Record<string, unknown> | null;
  prevHash: string | null;
  hash: string;
}

/** The content a hash covers: everything but the id (a row's name, not its content) and the hash. */
export type ChainedContent = Omit<AuditEvent, 'id' | 'hash'>;

/**
 * JSON with object keys sorted at every level: a value read back from jsonb (which reorders keys)
 * serialises exactly as the value that was hashed when it was written.
 */
export function canonicalJson(value: unknown): string {
  if (value === null || value === undefined) return 'null';
  if (value instanceof Date) return JSON.stringify(value.toISOString());
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(',')}}`;
  }
  return JSON.stringify(value);
}

/** SHA-256 (hex) of the event's content, `prevHash` included: what chains each event to the last. */
export function chainHash(e: ChainedContent): string {
  const content = [
    e.organizationId,
    e.seq,
    e.occurredAt,
    e.actor.kind,
    e.actor.id,
    e.actor.name,
    e.actor.role,
    e.action,
    e.resourceType,
    e.resourceId,
    e.campaignId,
    e.resourceIds,
    e.outcome,
    e.clientAddress,
    e.requestId,
    e.changedFields,
    e.changes,
    e.detail,
    e.prevHash,
  ];
  return createHash('sha256').update(canonicalJson(content)).digest('hex');
}

/** Why an event breaks the chain, or null when it follows `previous` (null: the first event). */
export function chainBreak(event: AuditEvent, previous: AuditEvent | null): string | null {
  const expectedSeq = previous ? previous.seq + 1 : 1;
  if (event.seq !== expectedSeq) return `expected event number ${expectedSeq}, found ${event.seq}`;
  const expectedPrev = previous ? previous.hash : null;
  if (event.prevHash !== expectedPrev) return "prev_hash is not the previous event's hash";
  if (chainHash(event) !== event.hash) return 'hash does not match the content';
  return null;
}

/** The result of checking an organization's chain. */
export interface ChainVerification {
  valid: boolean;
  eventsChecked: number;
  lastHash: string | null;
  firstMismatch: { id: string; seq: number; reason: string } | null;
}

/**
 * The event that follows `head` (the organization's last event, null for its first): numbered,
 * chained to it and hashed. Every store appends through this, so the fake and the SQL adapter chain
 * alike.
 */
export function nextInChain(
  input: AuditEventInput & { occurredAt: Date },
  head: { seq: number; hash: string } | null,
): Omit<AuditEvent, 'id'> {
  const content: ChainedContent = {
    organizationId: input.organizationId,
    seq: (head?.seq ?? 0) + 1,
    occurredAt: input.occurredAt,
    actor: {
      kind: input.actor.kind,
      id: input.actor.id,
      name: input.actor.name,
      role: input.actor.role,
    },
    action: input.action,
    resourceType: input.resourceType,
    resourceId: input.resourceId ?? null,
    campaignId: input.campaignId ?? null,
    resourceIds: input.resourceIds ?? [],
    outcome: input.outcome,
    clientAddress: input.clientAddress ?? null,
    requestId: input.requestId ?? null,
    changedFields: input.changedFields ?? [],
    changes: input.changes ?? null,
    detail: input.detail ?? null,
    prevHash: head?.hash ?? null,
  };
  return { ...content, hash: chainHash(content) };
}

/**
 * The event as PostgreSQL can store it: a request's own words (its query, the keys of its body, a
 * path parameter of a refused request) may hold NUL characters or lone surrogates, which `text` and
 * `jsonb` refuse; each becomes U+FFFD, in keys and values alike, before the event is hashed.
 */
export function storable<T>(value: T): T {
  if (typeof value === 'string') return value.replace(/\0/g, '\uFFFD').toWellFormed() as T;
  if (Array.isArray(value)) return value.map((v: unknown) => storable(v)) as T;
  if (value !== null && typeof value === 'object' && !(value instanceof Date)) {
    return Object.fromEntries(
      Object.entries(value).map(([k, v]) => [storable(k), storable(v)]),
    ) as T;
  }
  return value;
}
