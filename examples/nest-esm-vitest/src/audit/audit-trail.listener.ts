/**
 * An audit trail of our own: told of every call's end and every change of a target in-process, after
 * the service committed it (a write-back to an EHR would go here). What it throws is logged by the
 * service and dropped; the durable route is the signed webhooks.
 */
import {
  CallFinishedEvent,
  CampaignEventListener,
  type TargetTimelineEvent,
} from 'campaign-calling-service';

export interface AuditEntry {
  targetId: string;
  attempt: number;
  status: string;
  /** null when the target ended without a call (e.g. refused by the consent check). */
  callLogId: number | null;
}

export class AuditTrail extends CampaignEventListener {
  readonly entries: AuditEntry[] = [];
  /** Each target's changes as its timeline records them (added, status changed, deleted, ...). */
  readonly changes: Pick<
    TargetTimelineEvent,
    'id' | 'targetId' | 'kind' | 'status' | 'reason'
  >[] = [];

  override onCallFinished(event: CallFinishedEvent): void {
    this.entries.push({
      targetId: event.targetId,
      attempt: event.attempt,
      status: event.status,
      callLogId: event.callLogId,
    });
  }

  override onTargetEvent(event: TargetTimelineEvent): void {
    const { id, targetId, kind, status, reason } = event;
    this.changes.push({ id, targetId, kind, status, reason });
  }
}
