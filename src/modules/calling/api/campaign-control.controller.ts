import { Operation } from '../../../common/http/api-operation.js';
import { Audit, NotAudited } from '../../../common/audit/audit.decorators.js';
import { principalActor } from '../../target/application/ports/target-event-log.js';
import { Controller, Get, HttpCode, Param, Post } from '@nestjs/common';
import { ApiResponse, ApiTags } from '@nestjs/swagger';
import {
  Auth,
  type AuthContext,
  RequiresPermission,
} from '../../../common/http/auth.decorators.js';
import { presentCampaign } from '../../campaign/api/campaign.presenter.js';
import { CampaignResponseDto } from '../../campaign/api/dto/campaign-response.dto.js';
import type { CampaignAction } from '../../campaign/domain/campaign.js';
import { CampaignControl } from '../application/campaign-control.js';
import { CampaignStats, CampaignStatsService } from '../application/campaign-stats.service.js';
import { CallingWorker } from '../infrastructure/calling.worker.js';
import { CampaignIdParamsDto, CampaignStatsResponseDto } from './dto/campaign-control.dto.js';

const NOT_FOUND = { status: 404, description: 'Unknown campaign, or one of another organization' };
const INVALID = { status: 422, description: 'Validation Error (campaign_id is not a UUID)' };

/** Campaign control and progress (issue 12; docs/calling.md: Campaign control and progress). */
@ApiTags('campaigns')
@Controller('api/v1/campaigns/:campaign_id')
export class CampaignControlController {
  constructor(
    private readonly control: CampaignControl,
    private readonly statsService: CampaignStatsService,
    private readonly worker: CallingWorker,
  ) {}

  @RequiresPermission('campaigns.control')
  @Audit({ action: 'campaign.pause', resource: 'campaign' })
  @Post('pause')
  @HttpCode(200)
  @Operation(
    'pause_campaign_api_v1_campaigns__campaign_id__pause_post',
    'Pause a campaign',
    'No call of the campaign starts once this has returned; calls in flight finish and are recorded ' +
      'normally. Targets keep their status and scheduled times. Idempotent: pausing a paused campaign ' +
      'answers the same campaign. A cancelled campaign cannot be paused (409).',
  )
  @ApiResponse({ status: 200, type: CampaignResponseDto })
  @ApiResponse(NOT_FOUND)
  @ApiResponse({ status: 409, description: 'The campaign is cancelled' })
  @ApiResponse(INVALID)
  async pause(@Auth() auth: AuthContext, @Param() p: CampaignIdParamsDto) {
    return this.act('pause', auth, p);
  }

  @RequiresPermission('campaigns.control')
  @Audit({ action: 'campaign.resume', resource: 'campaign' })
  @Post('resume')
  @HttpCode(200)
  @Operation(
    'resume_campaign_api_v1_campaigns__campaign_id__resume_post',
    'Resume a campaign',
    'Calls start again: targets already due are dispatched at once. Idempotent: resuming an active ' +
      'campaign answers the same campaign. A cancelled campaign cannot be resumed (409).',
  )
  @ApiResponse({ status: 200, type: CampaignResponseDto })
  @ApiResponse(NOT_FOUND)
  @ApiResponse({ status: 409, description: 'The campaign is cancelled' })
  @ApiResponse(INVALID)
  async resume(@Auth() auth: AuthContext, @Param() p: CampaignIdParamsDto) {
    const campaign = await this.act('resume', auth, p);
    // The resume notified every dispatcher (NOTIFY on commit); this process's own, if it runs one, is
    // woken directly too (embedded PGlite delivers no notifications).
    this.worker.wake();
    return campaign;
  }

  @RequiresPermission('campaigns.control')
  @Audit({ action: 'campaign.cancel', resource: 'campaign' })
  @Post('cancel')
  @HttpCode(200)
  @Operation(
    'cancel_campaign_api_v1_campaigns__campaign_id__cancel_post',
    'Cancel a campaign',
    'Final: no call of the campaign ever starts again. Its Pending, Scheduled and Waiting targets end ' +
      '`Finished` with outcome `Campaign cancelled` (resolution unsuccessful / not_retrieved, no ' +
      'category), each with a `target.call_finished` notification; calls in flight finish and are ' +
      'recorded, and do not retry. Idempotent: cancelling a cancelled campaign answers the same campaign.',
  )
  @ApiResponse({ status: 200, type: CampaignResponseDto })
  @ApiResponse(NOT_FOUND)
  @ApiResponse(INVALID)
  async cancel(@Auth() auth: AuthContext, @Param() p: CampaignIdParamsDto) {
    return this.act('cancel', auth, p);
  }

  @RequiresPermission('campaigns.read')
  @NotAudited()
  @Get('stats')
  @Operation(
    'campaign_stats_api_v1_campaigns__campaign_id__stats_get',
    'Campaign progress',
    'Exact counts of the campaign now: targets by status, category and resolution, attempts, calls ' +
      'in flight, connect rate, mean call length, targets due now and later, the next scheduled time, ' +
      'and an estimate of when it is done.',
  )
  @ApiResponse({ status: 200, type: CampaignStatsResponseDto })
  @ApiResponse(NOT_FOUND)
  @ApiResponse(INVALID)
  async stats(@Auth() auth: AuthContext, @Param() p: CampaignIdParamsDto) {
    return presentStats(await this.statsService.stats(auth.organizationId, p.campaign_id));
  }

  /** The campaign after the caller's pause, resume or cancel, as the API answers it. */
  private async act(action: CampaignAction, auth: AuthContext, p: CampaignIdParamsDto) {
    const actor = principalActor(auth.principal);
    return presentCampaign(await this.control[action](auth.organizationId, p.campaign_id, actor));
  }
}

export function presentStats(s: CampaignStats): CampaignStatsResponseDto {
  return {
    campaign_id: s.campaignId,
    state: s.state,
    as_of: s.asOf.toISOString(),
    targets: {
      total: s.targets.total,
      by_status: s.targets.byStatus,
      by_category: s.targets.byCategory,
      by_resolution: s.targets.byResolution,
    },
    attempts: s.attempts,
    calls_in_flight: s.callsInFlight,
    ended_calls: s.endedCalls,
    connected_calls: s.connectedCalls,
    connect_rate: s.connectRate,
    average_call_seconds: s.averageCallSeconds,
    due_now: s.dueNow,
    due_later: s.dueLater,
    held_by_rule: s.heldByRule,
    next_scheduled_time: s.nextScheduledAt?.toISOString() ?? null,
    recent_calls_per_minute: s.recentCallsPerMinute,
    estimated_completion_at: s.estimatedCompletionAt?.toISOString() ?? null,
    estimate_held_until: s.estimateHeldUntil?.toISOString() ?? null,
    estimate_held_by_rule: s.estimateHeldByRule,
  };
}
