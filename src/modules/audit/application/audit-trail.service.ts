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
    return this.writer.add({
      ...event,
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
    for (;;) {
      const batch = await this.store.chainAfter(organizationId, previous?.seq ?? 0, VERIFY_BATCH);
      for (const event of batch) {
        const reason = chainBreak(event, previous);
        if (reason) {
          return {
            valid: false,
            eventsChecked: checked,
            lastHash: previous?.hash ?? null,
            firstMismatch: { id: event.id, seq: event.seq, reason },
          };
        }
        previous = event;
        checked++;
      }
      if (batch.length < VERIFY_BATCH) break;
    }
    return {
      valid: true,
      eventsChecked: checked,
      lastHash: previous?.hash ?? null,
      firstMismatch: null,
    };
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
