import { Operation } from '../../../common/http/api-operation.js';
import { Audit, listedIds } from '../../../common/audit/audit.decorators.js';
import { requireCampaignReach } from '../../../common/auth/auth-context.js';
import { Controller, Get, Param, Query } from '@nestjs/common';
import { ApiResponse, ApiTags } from '@nestjs/swagger';
import {
  Auth,
  type AuthContext,
  RequiresPermission,
  CampaignScope,
} from '../../../common/http/auth.decorators.js';
import { lowerBound, upperBound } from '../../../common/dates/date-bounds.js';
import { pageEnvelope } from '../../../common/paging/paging.js';
import { CallLogService } from '../application/call-log.service.js';
import { presentCallLog, presentCallLogDetail } from './call-log.presenter.js';
import {
  CallLogDetailResponseDto,
  CallLogPageResponseDto,
  CallLogParamsDto,
  GetCallLogQueryDto,
  ListCallLogsQueryDto,
} from './dto/call-log.dto.js';

@ApiTags('call-logs')
@Controller('api/v1/call-logs')
export class CallLogController {
  constructor(private readonly callLogs: CallLogService) {}

  @RequiresPermission('call_logs.read')
  @CampaignScope('filtered')
  @Audit({
    action: 'call_log.list',
    resource: 'call_log',
    ids: listedIds('call_logs'),
    // The campaign the list was filtered by, if any.
    campaign: (req) => (typeof req.query.campaign_id === 'string' ? req.query.campaign_id : null),
  })
  @Get()
  @Operation(
    'list_call_logs_api_v1_call_logs_get',
    'List Call Logs',
    "The caller's organization's call logs, in id order, with paging and date filtering.",
  )
  @ApiResponse({ status: 200, type: CallLogPageResponseDto })
  @ApiResponse({ status: 422, description: 'Validation Error' })
  async list(@Auth() auth: AuthContext, @Query() q: ListCallLogsQueryDto) {
    const { items, total } = await this.callLogs.list(auth.organizationId, {
      page: q.page,
      limit: q.limit,
      from: lowerBound(q.from_date),
      to: upperBound(q.to_date),
      campaignId: q.campaign_id,
      campaignIds: auth.campaignIds,
    });
    return { call_logs: items.map(presentCallLog), ...pageEnvelope(q, total) };
  }

  @RequiresPermission('call_logs.read')
  @CampaignScope('handler')
  @Audit({
    action: 'call_log.read',
    resource: 'call_log',
    refine: (req) => (String(req.query.include_recordings) === 'true' ? 'recording.read' : null),
  })
  @Get(':call_log_id')
  @Operation(
    'get_call_log_api_v1_call_logs__call_log_id__get',
    'Get Call Log',
    "One call log of the caller's organization; `recording_urls` is empty unless include_recordings=true.",
  )
  @ApiResponse({ status: 200, type: CallLogDetailResponseDto })
  @ApiResponse({ status: 404, description: 'Unknown call log, or one of another organization' })
  @ApiResponse({ status: 422, description: 'Validation Error' })
  async get(
    @Auth() auth: AuthContext,
    @Param() p: CallLogParamsDto,
    @Query() q: GetCallLogQueryDto,
  ) {
    const log = await this.callLogs.get(auth.organizationId, p.call_log_id);
    requireCampaignReach(auth, log.campaignId, 'Call log not found');
    return presentCallLogDetail(log, q.include_recordings);
  }
}
