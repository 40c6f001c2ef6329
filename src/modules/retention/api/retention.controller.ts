import { Operation } from '../../../common/http/api-operation.js';
import {
  Audit,
  NotAudited,
  answerField,
  listedIds,
} from '../../../common/audit/audit.decorators.js';
import { Body, Controller, Delete, Get, HttpCode, Param, Post, Put, Query } from '@nestjs/common';
import { ApiOkResponse, ApiTags } from '@nestjs/swagger';
import {
  Auth,
  type AuthContext,
  RequiresPermission,
} from '../../../common/http/auth.decorators.js';
import { RetentionPurge } from '../application/retention-purge.js';
import { RetentionService } from '../application/retention.service.js';
import {
  CampaignRetentionResponseDto,
  RetentionPolicyDto,
  OrganizationRetentionResponseDto,
  RetentionRunPageDto,
  RetentionRunResponseDto,
  RetentionRunsQueryDto,
} from './dto/retention-policy.dto.js';
import {
  policyFromBody,
  presentPolicy,
  presentRun,
  presentScopedPolicy,
} from './retention.presenter.js';

@ApiTags('compliance')
@Controller('api/v1/compliance/retention')
export class RetentionController {
  constructor(
    private readonly retention: RetentionService,
    private readonly purge: RetentionPurge,
  ) {}

  private async organizationAnswer(organizationId: string) {
    const { policy, campaigns } = await this.retention.policies(organizationId);
    return {
      ...presentPolicy(policy),
      campaigns: campaigns.map(presentScopedPolicy),
    };
  }

  @NotAudited()
  @RequiresPermission('retention.read')
  @Get()
  @Operation(
    'get_retention_policy_api_v1_compliance_retention_get',
    "The organization's retention policy",
    'How many days after a target’s last call each part of its data is kept (null: kept), whether ' +
      'transcripts are redacted before storage, what each window removes, and the campaigns with a ' +
      'policy of their own (docs/compliance.md, "Retention").',
  )
  @ApiOkResponse({ type: OrganizationRetentionResponseDto })
  get(@Auth() auth: AuthContext) {
    return this.organizationAnswer(auth.organizationId);
  }

  @Audit<RetentionController>({
    action: 'retention.update',
    resource: 'retention_policy',
    values: { before: (c, auth) => c.get(auth) },
  })
  @RequiresPermission('retention.write')
  @Put()
  @Operation(
    'put_retention_policy_api_v1_compliance_retention_put',
    "Replace the organization's retention policy",
    'Every window and `redact_transcripts`; the next purge applies it.',
  )
  @ApiOkResponse({ type: OrganizationRetentionResponseDto })
  async put(@Auth() auth: AuthContext, @Body() body: RetentionPolicyDto) {
    await this.retention.setPolicy(auth.organizationId, policyFromBody(body));
    return this.organizationAnswer(auth.organizationId);
  }

  // An erasure's record names its person (a number or an external id).
  @Audit({ action: 'retention_run.list', resource: 'retention_run', ids: listedIds('runs') })
  @RequiresPermission('retention.read')
  @Get('runs')
  @Operation(
    'list_retention_runs_api_v1_compliance_retention_runs_get',
    'Every purge run and erasure',
    'Newest first: what was removed, how many, when, under which policy or for whom and why.',
  )
  @ApiOkResponse({ type: RetentionRunPageDto })
  async runs(@Auth() auth: AuthContext, @Query() q: RetentionRunsQueryDto) {
    const { runs, total } = await this.retention.runs(auth.organizationId, q.skip, q.limit);
    return { runs: runs.map(presentRun), total };
  }

  @Audit({ action: 'retention.run', resource: 'retention_run', id: answerField('id') })
  @RequiresPermission('retention.write')
  @Post('run')
  @HttpCode(200)
  @Operation(
    'run_retention_purge_api_v1_compliance_retention_run_post',
    'Run the purge now',
    'Purges what has passed its window (resuming a run a stopped process left) and answers the ' +
      'run record; 409 while another purge of the organization runs.',
  )
  @ApiOkResponse({ type: RetentionRunResponseDto })
  async run(@Auth() auth: AuthContext) {
    return presentRun(await this.purge.runNow(auth.organizationId, auth.apiKeyId));
  }

  @NotAudited()
  @RequiresPermission('retention.read')
  @Get('campaigns/:campaign_id')
  @Operation(
    'get_campaign_retention_api_v1_compliance_retention_campaigns__campaign_id__get',
    "A campaign's retention policy",
    "Its own policy, or its organization's (`own`: false).",
  )
  @ApiOkResponse({ type: CampaignRetentionResponseDto })
  async getCampaign(@Auth() auth: AuthContext, @Param('campaign_id') campaignId: string) {
    const { policy, own } = await this.retention.campaignPolicy(auth.organizationId, campaignId);
    return { campaign_id: campaignId, own, ...presentPolicy(policy) };
  }

  @Audit<RetentionController>({
    action: 'retention.update',
    resource: 'retention_policy',
    values: { before: (c, auth, req) => c.getCampaign(auth, req.params.campaign_id ?? '') },
  })
  @RequiresPermission('retention.write')
  @Put('campaigns/:campaign_id')
  @Operation(
    'put_campaign_retention_api_v1_compliance_retention_campaigns__campaign_id__put',
    'Give a campaign a retention policy of its own',
    "It replaces the organization's policy, whole, for this campaign's targets.",
  )
  @ApiOkResponse({ type: CampaignRetentionResponseDto })
  async putCampaign(
    @Auth() auth: AuthContext,
    @Param('campaign_id') campaignId: string,
    @Body() body: RetentionPolicyDto,
  ) {
    await this.retention.setCampaignPolicy(auth.organizationId, campaignId, policyFromBody(body));
    return this.getCampaign(auth, campaignId);
  }

  @Audit({ action: 'retention.delete', resource: 'retention_policy' })
  @RequiresPermission('retention.write')
  @Delete('campaigns/:campaign_id')
  @Operation(
    'delete_campaign_retention_api_v1_compliance_retention_campaigns__campaign_id__delete',
    "Remove a campaign's own retention policy",
    "The campaign follows its organization's policy again.",
  )
  @ApiOkResponse({ type: CampaignRetentionResponseDto })
  async deleteCampaign(@Auth() auth: AuthContext, @Param('campaign_id') campaignId: string) {
    await this.retention.clearCampaignPolicy(auth.organizationId, campaignId);
    return this.getCampaign(auth, campaignId);
  }
}
