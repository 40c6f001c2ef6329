import { Injectable } from '@nestjs/common';
import { Clock } from '../../../common/clock/clock.js';
import { ConflictError } from '../../../common/errors/domain-errors.js';
import { UnitOfWork } from '../../../common/persistence/unit-of-work.js';
import { canonicalUuid } from '../../../common/ids/canonical-uuid.js';
import { CampaignReader } from '../../campaign/application/ports/campaign-reader.js';
import {
  EventActor,
  SYSTEM_ACTOR,
  TargetEventLog,
} from '../../target/application/ports/target-event-log.js';
import {
  TargetTransitions,
  TriggerSelection,
} from '../../target/application/ports/target-transitions.js';

export type TriggerRequest = { targetIds: string[] } | { count: number; prioritizeOldest: boolean };

export interface TriggerResult {
  scheduled: string[];
  skipped: { id: string; reason: 'not_found' | 'not_pending' }[];
}

/** `POST /campaigns/{id}/calls`: Pending targets to Scheduled (due now), in one transaction. */
@Injectable()
export class TriggerService {
  constructor(
    private readonly campaigns: CampaignReader,
    private readonly targets: TargetTransitions,
    private readonly uow: UnitOfWork,
    private readonly clock: Clock,
    private readonly events: TargetEventLog,
  ) {}

  async trigger(
    organizationId: string,
    campaignId: string,
    request: TriggerRequest,
    actor: EventActor = SYSTEM_ACTOR,
  ): Promise<TriggerResult> {
    const campaign = await this.campaigns.get(organizationId, campaignId);
    // A trigger racing a cancel is caught by the dispatcher, which ends a cancelled campaign's due targets.
    if (campaign.state === 'cancelled')
      throw new ConflictError(`Campaign ${campaign.id} is cancelled; no call starts again`);
    const requested = 'targetIds' in request ? [...new Set(request.targetIds)] : null;
    // Ids that are not UUIDs cannot exist; they never reach the uuid column.
    const selection: TriggerSelection = requested
      ? { targetIds: requested.map(canonicalUuid).filter((id) => id !== null) }
      : {
          count: (request as { count: number }).count,
          oldestFirst: (request as { prioritizeOldest: boolean }).prioritizeOldest,
        };
    const now = this.clock.now();
    // The claim makes the targets due; the dispatchers are notified when it commits.
    const claim = await this.uow.run(async (tx) => {
      await this.events.attribute(tx, { actor, reason: 'calls triggered' });
      return this.targets.claimForTrigger(tx, campaign.id, selection, now);
    });
    if (!requested) return { scheduled: claim.scheduled, skipped: [] };
    const notPending = new Set(claim.notPending);
    const scheduled = new Set(claim.scheduled);
    const skipped: TriggerResult['skipped'] = [];
    const inOrder: string[] = [];
    for (const id of requested) {
      const key = canonicalUuid(id) ?? id;
      if (scheduled.has(key)) inOrder.push(key);
      else skipped.push({ id, reason: notPending.has(key) ? 'not_pending' : 'not_found' });
    }
    return { scheduled: inOrder, skipped };
  }
}
