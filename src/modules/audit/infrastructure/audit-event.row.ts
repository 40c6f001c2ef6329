import type { AuditEvent, AuditOutcome } from '../domain/audit-event.js';

export interface AuditEventRow {
  id: string;
  organization_id: string;
  seq: string;
  occurred_at: Date;
  actor_kind: string;
  actor_id: string;
  actor_name: string;
  actor_role: string;
  action: string;
  resource_type: string;
  resource_id: string | null;
  campaign_id: string | null;
  resource_ids: string[];
  outcome: AuditOutcome;
  client_address: string | null;
  request_id: string | null;
  changed_fields: string[];
  changes: AuditEvent['changes'];
  detail: AuditEvent['detail'];
  prev_hash: string | null;
  hash: string;
}

export const AUDIT_EVENT_COLUMNS: readonly (keyof AuditEventRow & string)[] = [
  'id',
  'organization_id',
  'seq',
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
];

export function auditEventFromRow(r: AuditEventRow): AuditEvent {
  return {
    id: r.id,
    organizationId: r.organization_id,
    seq: Number(r.seq),
    occurredAt: new Date(r.occurred_at),
    actor: { kind: r.actor_kind, id: r.actor_id, name: r.actor_name, role: r.actor_role },
    action: r.action,
    resourceType: r.resource_type,
    resourceId: r.resource_id,
    campaignId: r.campaign_id,
    resourceIds: r.resource_ids,
    outcome: r.outcome,
    clientAddress: r.client_address,
    requestId: r.request_id,
    changedFields: r.changed_fields,
    changes: r.changes,
    detail: r.detail,
    prevHash: r.prev_hash,
    hash: r.hash,
  };
}
