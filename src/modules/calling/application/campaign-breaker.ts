import { Injectable, Logger } from '@nestjs/common';
import { CallLogService } from '../../call-log/application/call-log.service.js';
import {
  autoPauseReason,
  autoPauseTrips,
  TECHNICAL_FAILURE,
  type Campaign,
} from '../../campaign/domain/campaign.js';
import { CampaignControl } from './campaign-control.js';

/**
 * The circuit breaker (issue 12), before a campaign's claim: one read of its last `window` ended
 * calls; when more than `max_failure_ratio` of them failed technically, the campaign pauses itself
 * through CampaignControl (the claim then sees `paused` under its lock and starts nothing).
 */
@Injectable()
export class CampaignBreaker {
  private readonly logger = new Logger('Dispatcher');

  constructor(
    private readonly callLogs: CallLogService,
    private readonly control: CampaignControl,
  ) {}

  /** True when the campaign is paused now (by this trip or meanwhile): nothing is claimed for it. */
  async trip(campaign: Campaign): Promise<boolean> {
    const setting = campaign.autoPause;
    if (!setting) return false;
    const { ended, matching } = await this.callLogs.recentOutcomeShare(
      campaign.id,
      setting.window,
      TECHNICAL_FAILURE,
      // Only calls that ended since the last state change (a resume): resuming starts a fresh window,
      // else the failures that tripped the breaker would pause the campaign again at once.
      campaign.stateChangedAt,
    );
    const recent = { ended, failures: matching };
    if (!autoPauseTrips(setting, recent)) return false;
    const paused = await this.control.autoPause(campaign, {
      reason: autoPauseReason(setting, recent),
      failureRatio: matching / ended,
      window: setting.window,
    });
    if (paused) this.logger.warn({ campaignId: campaign.id, ended, matching }, 'auto-paused');
    return true;
  }
}
