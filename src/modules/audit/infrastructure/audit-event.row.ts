import type { AuditEvent } from '../domain/audit-event.js';
import {
  FLAT_AUDIT_COLUMNS,
  type FlatAuditEvent,
  fromFlatAuditEvent,
} from '../domain/audit-event-fields.js';

/** An `audit_events` row as `pg` returns it: the flat event, its bigint `seq` as a string. */
export type AuditEventRow = Omit<FlatAuditEvent, 'seq'> & { organization_id: string; seq: string };

/** Every column, from the event's one field list. */
export const AUDIT_EVENT_COLUMNS: readonly (keyof AuditEventRow & string)[] = [
  'organization_id',
  ...FLAT_AUDIT_COLUMNS,
];

export function auditEventFromRow(r: AuditEventRow): AuditEvent {
  return fromFlatAuditEvent(r.organization_id, {
    ...r,
    seq: Number(r.seq),
    occurred_at: new Date(r.occurred_at),
  });
}
