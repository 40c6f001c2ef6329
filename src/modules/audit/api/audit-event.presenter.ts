import type { AuditEvent, ChainVerification } from '../domain/audit-event.js';
import {
  FLAT_AUDIT_COLUMNS,
  flatAuditEvent,
  namedAuditEvent,
} from '../domain/audit-event-fields.js';

export function presentAuditEvent(e: AuditEvent) {
  return { ...namedAuditEvent(e), occurred_at: e.occurredAt.toISOString() };
}

export function presentVerification(v: ChainVerification) {
  return {
    valid: v.valid,
    events_checked: v.eventsChecked,
    last_hash: v.lastHash,
    first_mismatch: v.firstMismatch,
  };
}

/** The CSV columns: the flat event's (the actor in four columns). */
export const AUDIT_CSV_COLUMNS = FLAT_AUDIT_COLUMNS;

/** A CSV line: lists space-separated, objects as JSON text, nothing for null. */
export function auditEventCsvRow(e: AuditEvent): string[] {
  const flat = flatAuditEvent(e);
  return AUDIT_CSV_COLUMNS.map((column) => {
    const value: unknown = flat[column];
    if (value === null || value === undefined) return '';
    if (value instanceof Date) return value.toISOString();
    if (Array.isArray(value)) return value.join(' ');
    if (typeof value === 'object') return JSON.stringify(value);
    return String(value);
  });
}
