import { randomUUID } from 'crypto';
import {
  type AuditEventQuery,
  AuditEventStore,
  type NewAuditEvent,
} from '../modules/audit/application/ports/audit-event.store.js';
import { type AuditEvent, nextInChain } from '../modules/audit/domain/audit-event.js';

/** The audit trail in memory: chained as the SQL adapter chains (`nextInChain`), never changed. */
export class InMemoryAuditEventStore extends AuditEventStore {
  private readonly events: AuditEvent[] = [];

  async append(events: NewAuditEvent[]): Promise<void> {
    for (const e of events) {
      const head = this.events.filter((x) => x.organizationId === e.organizationId).at(-1);
      this.events.push({ id: randomUUID(), ...nextInChain(e, head ?? null) });
    }
  }

  async page(query: AuditEventQuery, offset: number, limit: number) {
    const matching = this.matching(query);
    return { events: matching.slice(offset, offset + limit), total: matching.length };
  }

  async *all(query: AuditEventQuery, batchSize: number): AsyncIterable<AuditEvent[]> {
    const matching = this.matching(query);
    for (let i = 0; i < matching.length; i += batchSize) yield matching.slice(i, i + batchSize);
  }

  async chainAfter(organizationId: string, afterSeq: number, limit: number) {
    return this.events
      .filter((e) => e.organizationId === organizationId && e.seq > afterSeq)
      .slice(0, limit);
  }

  async organizationsWithEvents(): Promise<string[]> {
    return [...new Set(this.events.map((e) => e.organizationId))].sort();
  }

  private matching(q: AuditEventQuery): AuditEvent[] {
    return this.events.filter(
      (e) =>
        e.organizationId === q.organizationId &&
        (!q.actorId || e.actor.id === q.actorId) &&
        (!q.action || e.action === q.action) &&
        (!q.resourceType || e.resourceType === q.resourceType) &&
        (!q.resourceId || e.resourceId === q.resourceId || e.resourceIds.includes(q.resourceId)) &&
        (!q.campaignId || e.campaignId === q.campaignId) &&
        (!q.from || e.occurredAt >= q.from) &&
        (!q.to || e.occurredAt < q.to),
    );
  }
}
