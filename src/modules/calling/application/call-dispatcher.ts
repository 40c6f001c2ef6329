import { Injectable, Logger } from '@nestjs/common';
import { Clock } from '../../../common/clock/clock.js';
import { CampaignReader } from '../../campaign/application/ports/campaign-reader.js';
import type { Campaign } from '../../campaign/domain/campaign.js';
import { TargetTransitions } from '../../target/application/ports/target-transitions.js';
import {
  CallProvider,
  CallProviders,
  ConnectionUnusableError,
} from '../../telephony/application/ports/call-provider.js';
import { CallClaim } from './call-claim.js';
import { CallPlacement } from './call-placement.js';
import { CallingSettings } from './calling-settings.js';
import { CampaignBreaker } from './campaign-breaker.js';

export { DEFAULT_FROM } from './call-starts.js';
export { UNUSABLE_CONNECTION_HOLD, UNUSABLE_CONNECTION_RETRY_MS } from './call-claim.js';

export interface RoundResult {
  /** Targets started, deferred or ended: there may be more to do at once. */
  acted: number;
  placed: number;
  /** Due targets were seen but others held them (another dispatcher): look again shortly. */
  contended: boolean;
  /** The provider's per-second budget ran out: nothing more before this time. */
  rateLimitedUntil: Date | null;
  /** This process has no room for more placements now. */
  placementsFull: boolean;
}

/** How long the list of campaigns with due targets is reused while claims keep succeeding. */
const DUE_CAMPAIGNS_TTL_MS = 1000;

/**
 * The dispatcher's round: campaign by campaign with due targets, while this process has room for
 * placements, each campaign is ended (cancelled), skipped (paused, breaker tripped, no free slot, a
 * connection that cannot be used) or claimed (`CallClaim`), and the claimed calls are handed to
 * `CallPlacement`, which dials them outside the transaction.
 */
@Injectable()
export class CallDispatcher {
  private readonly logger = new Logger('Dispatcher');
  /**
   * Campaigns with due targets, as last read. Finding them groups every due row, so a backlog is not
   * regrouped for each batch: the list is reused for a second while claims succeed, and read again
   * after an idle round, a notification (`forgetDueCampaigns`) or a second.
   */
  private dueCampaigns: { ids: string[]; readAt: number } | null = null;

  constructor(
    private readonly targets: TargetTransitions,
    private readonly campaigns: CampaignReader,
    private readonly claims: CallClaim,
    private readonly breaker: CampaignBreaker,
    private readonly placement: CallPlacement,
    private readonly providers: CallProviders,
    private readonly clock: Clock,
    private readonly settings: CallingSettings,
  ) {}

  async round(): Promise<RoundResult> {
    const result: RoundResult = {
      acted: 0,
      placed: 0,
      contended: false,
      rateLimitedUntil: null,
      placementsFull: false,
    };
    const campaignIds = await this.campaignsWithDueTargets();
    for (const campaignId of campaignIds) {
      const room = this.placement.free();
      if (room === 0) {
        result.placementsFull = true;
        break;
      }
      const campaign = await this.campaigns.findById(campaignId);
      // Paused: its due targets wait (checked again under the lock below, which is what counts).
      if (!campaign || campaign.state === 'paused') continue;
      if (campaign.state === 'cancelled') {
        result.acted += await this.claims.endCancelled(campaign);
        continue;
      }
      if (await this.breaker.trip(campaign)) {
        // The campaign left the due list: read it again without waiting for the cache to expire.
        this.forgetDueCampaigns();
        continue;
      }
      const slots =
        campaign.maxConcurrentCalls - (await this.targets.countInFlight(null, campaignId));
      if (slots <= 0) continue;
      const provider = await this.providerOf(campaign, result);
      if (!provider) continue;
      const claim = await this.claims.claim(
        campaign,
        provider,
        Math.min(this.settings.claimBatchSize, room, slots),
      );
      if (claim.claimed.length > 0) this.placement.place(claim.claimed);
      result.acted += claim.acted;
      result.placed += claim.claimed.length;
      if (claim.contended) result.contended = true;
      if (claim.rateLimitedUntil) {
        result.rateLimitedUntil = claim.rateLimitedUntil;
        break;
      }
    }
    if (result.acted === 0) this.forgetDueCampaigns();
    return result;
  }

  /**
   * The campaign's provider, or null: its calls wait. One organization's connection that cannot be
   * used must not stall the others, nor be tried again every round: its due calls are held a while,
   * saying why.
   */
  private async providerOf(campaign: Campaign, result: RoundResult): Promise<CallProvider | null> {
    try {
      return await this.providers.forCampaign(campaign);
    } catch (err) {
      if (err instanceof ConnectionUnusableError) {
        const held = await this.claims.holdForConnection(
          campaign,
          err,
          this.settings.claimBatchSize,
        );
        result.acted += held;
        this.logger.warn(
          { campaignId: campaign.id, connection: err.connectionId, held },
          err.message,
        );
      } else {
        this.logger.warn(
          { err, campaignId: campaign.id, connectionId: campaign.providerConnectionId },
          "resolving the campaign's provider failed; its calls wait",
        );
      }
      return null;
    }
  }

  /** Something became due (a notification): read the campaigns with due targets again. */
  forgetDueCampaigns(): void {
    this.dueCampaigns = null;
  }

  private async campaignsWithDueTargets(): Promise<string[]> {
    const now = this.clock.now().getTime();
    if (this.dueCampaigns && now - this.dueCampaigns.readAt < DUE_CAMPAIGNS_TTL_MS)
      return this.dueCampaigns.ids;
    // Paused campaigns are left out, so however many due targets they hold, they take no place.
    const paused = await this.campaigns.pausedIds();
    const ids = await this.targets.dueCampaigns(new Date(now), 500, paused);
    this.dueCampaigns = { ids, readAt: now };
    return ids;
  }
}
