import type { AuditEvent, AuditEventInput } from '../../domain/audit-event.js';

/** An event to append, stamped with its time. */
export interface NewAuditEvent extends AuditEventInput {
  occurredAt: Date;
}

export interface AuditEventQuery {
  organizationId: string;
  actorId?: string;
  action?: string;
  resourceType?: string;
  /** The event's resource, or one of the resources a list page returned. */
  resourceId?: string;
  campaignId?: string;
  from?: Date | null;
  /** Exclusive. */
  to?: Date | null;
}

/**
 * The append-only store of audit events. `append` numbers and chains each organization's events in
 * one transaction that holds that organization's lock, so no two writers chain to the same event.
 */
export abstract class AuditEventStore {
  abstract append(events: NewAuditEvent[]): Promise<void>;
  /** Oldest first. */
  abstract page(
    query: AuditEventQuery,
    offset: number,
    limit: number,
  ): Promise<{ events: AuditEvent[]; total: number }>;
  /** Every event the query matches, oldest first, `batchSize` at a time. */
  abstract all(query: AuditEventQuery, batchSize: number): AsyncIterable<AuditEvent[]>;
  /** An organization's events after number `afterSeq`, in chain order. */
  abstract chainAfter(
    organizationId: string,
    afterSeq: number,
    limit: number,
  ): Promise<AuditEvent[]>;
  /** The organizations that have events (for checking every chain). */
  abstract organizationsWithEvents(): Promise<string[]>;
}
