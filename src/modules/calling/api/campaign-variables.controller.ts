import { Operation } from '../../../common/http/api-operation.js';
import { NotAudited } from '../../../common/audit/audit.decorators.js';
import { Controller, Get, Param } from '@nestjs/common';
import { ApiParam, ApiResponse, ApiTags } from '@nestjs/swagger';
import {
  Auth,
  type AuthContext,
  RequiresPermission,
} from '../../../common/http/auth.decorators.js';
import { CampaignVariablesService } from '../application/campaign-variables.service.js';
import { presentCampaignVariables } from './campaign-variables.presenter.js';
import { CampaignVariablesResponseDto } from './dto/campaign-variables.dto.js';

/** The reference's "needed variables for the campaign". */
@ApiTags('campaigns')
@Controller('api/v1/campaigns/:campaign_id/variables')
export class CampaignVariablesController {
  constructor(private readonly variables: CampaignVariablesService) {}

  @RequiresPermission('campaigns.read')
  @NotAudited()
  @Get()
  @Operation(
    'get_required_variables_api_v1_campaigns__campaign_id__variables_get',
    'Get Required Variables',
    "The variables the campaign's calls and texts need (every `{{input_data...}}` and `{{patient...}}` of its " +
      "connection's TwiML template and voicemail message and of its follow-up text) and, for each, " +
      'how many of its targets awaiting a call lack it, with the first 100.',
  )
  @ApiParam({
    name: 'campaign_id',
    description: 'The ID of the campaign to get the variables from.',
  })
  @ApiResponse({ status: 200, type: CampaignVariablesResponseDto })
  @ApiResponse({ status: 404, description: 'Unknown campaign, or one of another organization' })
  async campaignVariables(@Auth() auth: AuthContext, @Param('campaign_id') campaignId: string) {
    return presentCampaignVariables(
      await this.variables.forCampaign(auth.organizationId, campaignId),
    );
  }
}
