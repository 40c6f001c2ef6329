import { Injectable } from '@nestjs/common';
import { CoalescingWriter } from '../../../common/batching/coalescing-writer.js';
import { Clock } from '../../../common/clock/clock.js';
import { isUuid } from '../../../common/ids/canonical-uuid.js';
import {
  type AuditEvent,
  type AuditEventInput,
  chainBreak,
  type ChainVerification,
} from '../domain/audit-event.js';
import { AuditEventQuery, AuditEventStore, NewAuditEvent } from './ports/audit-event.store.js';
import { storable } from '../domain/audit-event.js';

const VERIFY_BATCH = 1000;

/**
 * The audit trail: what every module calls to record an event, and what reads and checks it.
 *
 *   await auditTrail.record({ organizationId, actor, action: 'session.sign_in', resourceType: 'user',
 *                             resourceId: user.id, outcome: 'allowed', clientAddress, requestId });
 *
 * `record` resolves once the event is committed: await it before answering (the request's data must
 * not leave without its event). Events recorded while a write is in flight share the next one.
 */
/** The longest resource id an event keeps (a UUID has 36 characters, a phone number 16). */
const MAX_ID_LENGTH = 200;

@Injectable()
export class AuditTrailService {
  private readonly writer: CoalescingWriter<NewAuditEvent>;

  constructor(
    private readonly store: AuditEventStore,
    private readonly clock: Clock,
  ) {
    // One transaction in flight per process (group commit): concurrent requests' events share it, and
    // audit writes never hold more than one of the pool's connections.
    this.writer = new CoalescingWriter((events) => this.store.append(events), 500, 'one-at-a-time');
  }

  record(event: AuditEventInput): Promise<void> {
    const clean = storable(event);
    return this.writer.add({
      ...clean,
      // What a request named is kept as named, up to a length no real id reaches: the ids are
      // indexed, and an index entry has a size limit.
      resourceId: clean.resourceId?.slice(0, MAX_ID_LENGTH),
      resourceIds: clean.resourceIds?.map((id) => String(id).slice(0, MAX_ID_LENGTH)),
      // A refusal is recorded before validation: a malformed campaign id names no campaign.
      campaignId: event.campaignId && isUuid(event.campaignId) ? event.campaignId : null,
      occurredAt: this.clock.now(),
    });
  }

  page(query: AuditEventQuery, offset: number, limit: number) {
    return this.store.page(query, offset, limit);
  }

  all(query: AuditEventQuery): AsyncIterable<AuditEvent[]> {
    return this.store.all(query, VERIFY_BATCH);
  }

  /** Walks the organization's chain from its first event; names the first that does not match. */
  async verify(organizationId: string): Promise<ChainVerification> {
    let previous: AuditEvent | null = null;
    let checked = 0;
    const result = (firstMismatch: ChainVerification['firstMismatch']): ChainVerification => ({
      valid: firstMismatch === null,
      eventsChecked: checked,
      lastHash: previous?.hash ?? null,
      firstMismatch,
    });
    for (;;) {
      const batch = await this.store.chainAfter(organizationId, previous?.seq ?? 0, VERIFY_BATCH);
      for (const event of batch) {
        const reason = chainBreak(event, previous);
        if (reason) return result({ id: event.id, seq: event.seq, reason });
        previous = event;
        checked++;
      }
      if (batch.length < VERIFY_BATCH) break;
    }
    return result(null);
  }

  /** Every organization's chain (the CLI's `audit:verify` without `--org`). */
  async verifyAll(): Promise<{ organizationId: string; verification: ChainVerification }[]> {
    const results = [];
    for (const organizationId of await this.store.organizationsWithEvents()) {
      results.push({ organizationId, verification: await this.verify(organizationId) });
    }
    return results;
  }
}
