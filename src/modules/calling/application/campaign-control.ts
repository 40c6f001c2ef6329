import { Injectable } from '@nestjs/common';
import { Clock } from '../../../common/clock/clock.js';
import { UnitOfWork } from '../../../common/persistence/unit-of-work.js';
import { CampaignReader } from '../../campaign/application/ports/campaign-reader.js';
import { CampaignStateChanges } from '../../campaign/application/ports/campaign-state-changes.js';
import type { Campaign, CampaignAction } from '../../campaign/domain/campaign.js';
import {
  EventActor,
  SYSTEM_ACTOR,
  TargetEventLog,
} from '../../target/application/ports/target-event-log.js';
import { CAMPAIGN_CANCELLED } from '../../target/domain/waiting-reason.js';
import { TargetTransitions } from '../../target/application/ports/target-transitions.js';
import { Outbox } from '../../webhook/application/ports/outbox.js';
import { cancelledDecision } from '../domain/call-outcome.js';
import { endedWithoutCall } from './ended-without-call.js';

/**
 * `POST /campaigns/{id}/pause|resume|cancel` (issue 12). Each runs in one transaction that first takes
 * the campaign's claim lock, the advisory lock the dispatcher holds while it claims the campaign's
 * targets (TargetTransitions.lockCampaigns), and reads the state under it. So a claim under way
 * finishes (its calls started before the pause or cancel returns), and every claim after it reads the
 * new state and starts nothing: no call starts once a pause or cancel has returned. Calls in flight
 * end and are recorded normally.
 *
 * Cancel also ends the campaign's `Pending`, `Scheduled` and `Waiting` targets (`Finished`, outcome
 * `Campaign cancelled`) with one `target.call_finished` notification each, in the same transaction.
 * Resume notifies the dispatchers, so due targets are claimed at once rather than at the next poll.
 */
@Injectable()
export class CampaignControl {
  constructor(
    private readonly campaigns: CampaignReader,
    private readonly stateChanges: CampaignStateChanges,
    private readonly targets: TargetTransitions,
    private readonly outbox: Outbox,
    private readonly uow: UnitOfWork,
    private readonly clock: Clock,
    private readonly events: TargetEventLog,
  ) {}

  pause(organizationId: string, campaignId: string, actor = SYSTEM_ACTOR): Promise<Campaign> {
    return this.apply(organizationId, campaignId, 'pause', actor);
  }

  /**
   * The circuit breaker's pause: the same claim lock as `pause` (no call starts once it returned), the
   * reason kept in `paused_reason`, and one `campaign.paused` event in the same transaction. Only an
   * active campaign is paused: false when it was paused or cancelled meanwhile (nothing recorded).
   */
  async autoPause(
    campaign: Pick<Campaign, 'id' | 'organizationId'>,
    trip: { reason: string; failureRatio: number; window: number },
  ): Promise<boolean> {
    return this.uow.run(async (tx) => {
      await this.targets.lockCampaigns(tx, [campaign.id]);
      if ((await this.campaigns.lockedState(tx, campaign.id)) !== 'active') return false;
      const now = this.clock.now();
      const { changed } = await this.stateChanges.changeState(
        tx,
        campaign.organizationId,
        campaign.id,
        'pause',
        now,
        trip.reason,
      );
      if (!changed) return false;
      await this.outbox.record(tx, [
        {
          kind: 'campaign_paused',
          event: {
            organizationId: campaign.organizationId,
            campaignId: campaign.id,
            reason: trip.reason,
            failureRatio: trip.failureRatio,
            window: trip.window,
            pausedAt: now,
          },
        },
      ]);
      return true;
    });
  }

  resume(organizationId: string, campaignId: string, actor = SYSTEM_ACTOR): Promise<Campaign> {
    return this.apply(organizationId, campaignId, 'resume', actor);
  }

  cancel(organizationId: string, campaignId: string, actor = SYSTEM_ACTOR): Promise<Campaign> {
    return this.apply(organizationId, campaignId, 'cancel', actor);
  }

  /**
   * Pause and resume change no target row, so they write no target event: a paused campaign's targets
   * show it live in `waiting_reason` (one event per target would make a pause of 100,000 targets
   * write 100,000 rows). Cancel ends targets: each gets its event, caused by the API key.
   */
  private async apply(
    organizationId: string,
    campaignId: string,
    action: CampaignAction,
    actor: EventActor,
  ): Promise<Campaign> {
    // NotFound (unknown, malformed or another organization's id) before any lock is taken.
    const { id } = await this.campaigns.get(organizationId, campaignId);
    return this.uow.run(async (tx) => {
      await this.targets.lockCampaigns(tx, [id]);
      const now = this.clock.now();
      const { campaign, changed } = await this.stateChanges.changeState(
        tx,
        organizationId,
        id,
        action,
        now,
      );
      if (!changed) return campaign;
      if (action === 'resume') await this.targets.notifyDue(tx);
      if (action === 'cancel') {
        await this.events.attribute(tx, { actor, reason: CAMPAIGN_CANCELLED });
        const ended = await this.targets.cancelOpen(tx, id, cancelledDecision(campaign.type), now);
        // One set-based write for every ended target: a cancel may end 100,000 of them.
        await this.outbox.record(
          tx,
          ended.map((target) => endedWithoutCall(target, campaign)),
        );
      }
      return campaign;
    });
  }
}
