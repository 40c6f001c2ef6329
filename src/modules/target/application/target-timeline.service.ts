import { Injectable } from '@nestjs/common';
import { Clock } from '../../../common/clock/clock.js';
import { canonicalUuid } from '../../../common/ids/canonical-uuid.js';
import { CampaignReader } from '../../campaign/application/ports/campaign-reader.js';
import { TargetNotifications } from '../../webhook/application/ports/target-notifications.js';
import type { Target } from '../domain/target.js';
import { waitingReason } from '../domain/waiting-reason.js';
import { TargetEventLog, TimelineEntry, TimelinePosition } from './ports/target-event-log.js';
import { TargetTransitions } from './ports/target-transitions.js';
import { TargetRepository } from './ports/target.repository.js';
import { targetNotFound } from './target.service.js';

export interface TimelinePage {
  entries: TimelineEntry[];
  /** The position of the last entry, when older entries follow; else null. */
  next: TimelinePosition | null;
}

/**
 * "Why not called yet" (issue 12): a target's timeline and its live waiting reason.
 *
 * Changes of the target itself (added, moves, calls started and ended, edits, deletion) are this
 * module's `target_events`, written by triggers in the statement that changes `targets`. Step payloads
 * are written there too, by the step module through `TargetEventLog.record` (it depends on this module).
 * Notifications stay in the webhook module's outbox, which this module may read (it imports the webhook
 * module, not the reverse) and merges here when the timeline is read: copying them would make a second
 * owner of the same facts and one more write per notification.
 */
@Injectable()
export class TargetTimelineService {
  constructor(
    private readonly targets: TargetRepository,
    private readonly transitions: TargetTransitions,
    private readonly campaigns: CampaignReader,
    private readonly events: TargetEventLog,
    private readonly notifications: TargetNotifications,
    private readonly clock: Clock,
  ) {}

  /**
   * Newest first, `limit` at most, strictly before `before`. Not found: a target that is not in the
   * organization and never was (a deleted target's history stays readable).
   */
  async timeline(
    organizationId: string,
    targetId: string,
    before: TimelinePosition | null,
    limit: number,
  ): Promise<TimelinePage> {
    const id = canonicalUuid(targetId);
    if (!id) throw targetNotFound(targetId);
    // One more than asked from each source tells whether anything older follows.
    const [own, notifications] = await Promise.all([
      this.events.list(organizationId, id, before, limit + 1),
      this.notifications.listForTarget(organizationId, id, before, limit + 1),
    ]);
    const merged = [
      ...own,
      ...notifications.map((n): TimelineEntry => ({
        event: {
          id: n.eventId,
          targetId: id,
          at: n.createdAt,
          kind: 'notification',
          status: null,
          actor: { type: 'system', id: null },
          reason: `${n.type} notification ${n.deliveryStatus === null ? 'recorded (no webhook_url)' : n.deliveryStatus}`,
          data: {
            event_id: n.eventId,
            event_type: n.type,
            delivery_status: n.deliveryStatus,
            delivery_attempts: n.deliveryAttempts,
          },
        },
        position: { atMicros: n.createdMicros, key: n.sortKey },
      })),
    ].sort((a, b) => comparePositions(b.position, a.position));
    const entries = merged.slice(0, limit);
    if (entries.length === 0 && before === null) {
      // No history at all: a target of another organization, or none.
      if (!(await this.targets.findById(organizationId, id))) throw targetNotFound(targetId);
    }
    return {
      entries,
      next: merged.length > limit ? entries[entries.length - 1].position : null,
    };
  }

  /** Why the target is not being called now (see domain/waiting-reason.ts), read live. */
  async waitingReason(target: Target): Promise<string | null> {
    if (!['Pending', 'Scheduled', 'Waiting', 'SMS Scheduled'].includes(target.status)) return null;
    // Words, not a decision: a campaign read up to a second ago will do (see findRecent).
    const campaign = await this.campaigns.findRecent(target.campaignId);
    if (!campaign) return null;
    const inFlight =
      target.status === 'Scheduled' ? await this.transitions.countInFlight(null, campaign.id) : 0;
    return waitingReason(target, { campaign, inFlight, now: this.clock.now() });
  }
}

/** Timeline order: by instant, then by key (byte order, as the adapters sort). */
export function comparePositions(a: TimelinePosition, b: TimelinePosition): number {
  if (a.atMicros !== b.atMicros) return a.atMicros - b.atMicros;
  return a.key < b.key ? -1 : a.key > b.key ? 1 : 0;
}
