import type { AuditEvent, ChainVerification } from '../domain/audit-event.js';

export function presentAuditEvent(e: AuditEvent) {
  return {
    id: e.id,
    seq: e.seq,
    occurred_at: e.occurredAt.toISOString(),
    actor: e.actor,
    action: e.action,
    resource_type: e.resourceType,
    resource_id: e.resourceId,
    campaign_id: e.campaignId,
    resource_ids: e.resourceIds,
    outcome: e.outcome,
    client_address: e.clientAddress,
    request_id: e.requestId,
    changed_fields: e.changedFields,
    changes: e.changes,
    detail: e.detail,
    prev_hash: e.prevHash,
    hash: e.hash,
  };
}

export function presentVerification(v: ChainVerification) {
  return {
    valid: v.valid,
    events_checked: v.eventsChecked,
    last_hash: v.lastHash,
    first_mismatch: v.firstMismatch,
  };
}

/** The CSV columns: nested values (actor, lists, changes) flattened or as JSON text. */
export const AUDIT_CSV_COLUMNS = [
  'seq',
  'id',
  'occurred_at',
  'actor_kind',
  'actor_id',
  'actor_name',
  'actor_role',
  'action',
  'resource_type',
  'resource_id',
  'campaign_id',
  'resource_ids',
  'outcome',
  'client_address',
  'request_id',
  'changed_fields',
  'changes',
  'detail',
  'prev_hash',
  'hash',
] as const;

export function auditEventCsvRow(e: AuditEvent): string[] {
  const values: Record<(typeof AUDIT_CSV_COLUMNS)[number], string> = {
    seq: String(e.seq),
    id: e.id,
    occurred_at: e.occurredAt.toISOString(),
    actor_kind: e.actor.kind,
    actor_id: e.actor.id,
    actor_name: e.actor.name,
    actor_role: e.actor.role,
    action: e.action,
    resource_type: e.resourceType,
    resource_id: e.resourceId ?? '',
    campaign_id: e.campaignId ?? '',
    resource_ids: e.resourceIds.join(' '),
    outcome: e.outcome,
    client_address: e.clientAddress ?? '',
    request_id: e.requestId ?? '',
    changed_fields: e.changedFields.join(' '),
    changes: e.changes ? JSON.stringify(e.changes) : '',
    detail: e.detail ? JSON.stringify(e.detail) : '',
    prev_hash: e.prevHash ?? '',
    hash: e.hash,
  };
  return AUDIT_CSV_COLUMNS.map((c) => values[c]);
}
