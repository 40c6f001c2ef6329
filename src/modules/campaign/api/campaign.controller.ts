import { Operation } from '../../../common/http/api-operation.js';
import { Audit, NotAudited, answerField } from '../../../common/audit/audit.decorators.js';
import { Body, Controller, Get, HttpCode, Param, Patch, Post, Query } from '@nestjs/common';
import { ApiOkResponse, ApiResponse, ApiTags } from '@nestjs/swagger';
import {
  Auth,
  type AuthContext,
  RequiresPermission,
  CampaignScope,
} from '../../../common/http/auth.decorators.js';
import { pageEnvelope } from '../../../common/paging/paging.js';
import { CampaignService } from '../application/campaign.service.js';
import { presentCampaign, toCampaignChanges, toCreateCampaign } from './campaign.presenter.js';
import { CampaignResponseDto } from './dto/campaign-response.dto.js';
import {
  CampaignPageResponseDto,
  CreateCampaignDto,
  ListCampaignsQueryDto,
  UpdateCampaignDto,
} from './dto/campaign.dto.js';

/** Campaign management: beyond the spec, which leaves it out (DECISIONS: Campaigns, blacklists). */
@ApiTags('campaigns')
@Controller('api/v1/campaigns')
export class CampaignController {
  constructor(private readonly campaigns: CampaignService) {}

  @RequiresPermission('campaigns.create')
  @Audit({
    action: 'campaign.create',
    resource: 'campaign',
    id: answerField('id'),
    campaign: answerField('id'),
    values: {},
  })
  @Post()
  @HttpCode(201)
  @Operation(
    'create_campaign_api_v1_campaigns_post',
    'Create a campaign',
    "Creates a campaign of the caller's organization: its type (which category enum its targets use), " +
      'calling window, retry policy, steps and webhook URL. The answer carries the webhook signing ' +
      'secret, shown only here (and on rotation).',
  )
  @ApiResponse({
    status: 201,
    type: CampaignResponseDto,
    description: 'The campaign, with its webhook_secret (shown here and on rotation only)',
  })
  async create(@Auth() auth: AuthContext, @Body() body: CreateCampaignDto) {
    return presentCampaign(
      await this.campaigns.create(auth.organizationId, toCreateCampaign(body)),
      true,
    );
  }

  @RequiresPermission('campaigns.read')
  @CampaignScope('filtered')
  @NotAudited()
  @Get()
  @Operation(
    'list_campaigns_api_v1_campaigns_get',
    'List campaigns',
    "The caller's organization's campaigns, oldest first, a page at a time.",
  )
  @ApiOkResponse({ type: CampaignPageResponseDto })
  async list(@Auth() auth: AuthContext, @Query() query: ListCampaignsQueryDto) {
    const { items, total } = await this.campaigns.list(
      auth.organizationId,
      query,
      auth.campaignIds,
    );
    return { campaigns: items.map((c) => presentCampaign(c)), ...pageEnvelope(query, total) };
  }

  @RequiresPermission('campaigns.read')
  @NotAudited()
  @Get(':campaign_id')
  @Operation(
    'get_campaign_api_v1_campaigns__campaign_id__get',
    'Get a campaign',
    "One campaign of the caller's organization (without its webhook secret).",
  )
  @ApiOkResponse({ type: CampaignResponseDto })
  async get(@Auth() auth: AuthContext, @Param('campaign_id') campaignId: string) {
    return presentCampaign(await this.campaigns.get(auth.organizationId, campaignId));
  }

  @RequiresPermission('campaigns.write')
  @Audit<CampaignController>({
    action: 'campaign.update',
    resource: 'campaign',
    values: { before: (c, auth, req) => c.get(auth, req.params.campaign_id!) },
  })
  @Patch(':campaign_id')
  @Operation(
    'update_campaign_api_v1_campaigns__campaign_id__patch',
    'Update a campaign',
    'Changes the fields sent and leaves the others as they are. Targets already scheduled keep ' +
      'their schedule; the new calling window and retry policy apply to calls placed from now on.',
  )
  @ApiOkResponse({ type: CampaignResponseDto })
  async update(
    @Auth() auth: AuthContext,
    @Param('campaign_id') campaignId: string,
    @Body() body: UpdateCampaignDto,
  ) {
    return presentCampaign(
      await this.campaigns.update(auth.organizationId, campaignId, toCampaignChanges(body)),
    );
  }
}
