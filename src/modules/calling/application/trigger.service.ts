import { Injectable } from '@nestjs/common';
import { Clock } from '../../../common/clock/clock';
import { UnitOfWork } from '../../../common/persistence/unit-of-work';
import { isUuid } from '../../../common/validation/py-validators';
import { CallScheduler } from '../../target/application/ports/call-scheduler';
import { CampaignReader } from '../../campaign/application/campaign-reader';
import { DispatchRepository, TriggerSelection } from './ports/dispatch.repository';

export type TriggerRequest = { targetIds: string[] } | { count: number; prioritizeOldest: boolean };

export interface TriggerResult {
  scheduled: string[];
  skipped: { id: string; reason: 'not_found' | 'not_pending' }[];
}

/** `POST /campaigns/{id}/calls`: Pending targets to Scheduled and their dispatch jobs, in one transaction. */
@Injectable()
export class TriggerService {
  constructor(
    private readonly campaigns: CampaignReader,
    private readonly targets: DispatchRepository,
    private readonly scheduler: CallScheduler,
    private readonly uow: UnitOfWork,
    private readonly clock: Clock,
  ) {}

  async trigger(
    organizationId: string,
    campaignId: string,
    request: TriggerRequest,
  ): Promise<TriggerResult> {
    const campaign = await this.campaigns.get(organizationId, campaignId);
    const requested = 'targetIds' in request ? [...new Set(request.targetIds)] : null;
    // Ids that are not UUIDs cannot exist; they never reach the uuid column.
    const selection: TriggerSelection = requested
      ? { targetIds: requested.filter(isUuid).map(canonicalUuid) }
      : {
          count: (request as { count: number }).count,
          oldestFirst: (request as { prioritizeOldest: boolean }).prioritizeOldest,
        };
    const now = this.clock.now();
    const claim = await this.uow.run(async (tx) => {
      const claimed = await this.targets.claimForTrigger(tx, campaign.id, selection, now);
      await this.scheduler.scheduleCalls(
        tx,
        claimed.scheduled.map((targetId) => ({ targetId, campaignId: campaign.id, at: now })),
      );
      return claimed;
    });
    if (!requested) return { scheduled: claim.scheduled, skipped: [] };
    const notPending = new Set(claim.notPending);
    const scheduled = new Set(claim.scheduled);
    const skipped: TriggerResult['skipped'] = [];
    const inOrder: string[] = [];
    for (const id of requested) {
      const key = isUuid(id) ? canonicalUuid(id) : id;
      if (scheduled.has(key)) inOrder.push(key);
      else skipped.push({ id, reason: notPending.has(key) ? 'not_pending' : 'not_found' });
    }
    return { scheduled: inOrder, skipped };
  }
}

/** Lower case with dashes, as the database returns it. */
function canonicalUuid(id: string): string {
  const hex = id.replace(/-/g, '').toLowerCase();
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}
