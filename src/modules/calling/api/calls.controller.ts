import { Body, Controller, HttpCode, Param, Post, Req } from '@nestjs/common';
import { ApiBody, ApiOperation, ApiParam, ApiResponse, ApiTags } from '@nestjs/swagger';
import { InvalidInputError } from '../../../common/errors/domain-errors';
import { Auth, AuthContext } from '../../../common/http/auth.decorators';
import { TriggerService } from '../application/trigger.service';
import { TriggerCallsDto, TriggerCallsResponseDto } from './dto/trigger-calls.dto';

export const EXACTLY_ONE_SELECTOR = 'Exactly one of target_ids or count must be provided';

@ApiTags('Campaigns')
@Controller('api/v1/campaigns/:campaign_id/calls')
export class CallsController {
  constructor(private readonly triggers: TriggerService) {}

  @Post()
  @HttpCode(200)
  @ApiOperation({
    operationId: 'campaign_calls_api_v1_campaigns__campaign_id__calls_post',
    summary: 'Campaign Calls',
    description:
      'Schedules calls: the named Pending targets (`target_ids`), or `count` Pending targets picked at random ' +
      '(oldest first with `prioritize_oldest`). Exactly one of target_ids and count. Claiming is atomic: ' +
      'concurrent triggers never schedule a target twice.',
  })
  @ApiParam({ name: 'campaign_id', description: 'The ID of the campaign.' })
  @ApiBody({ type: TriggerCallsDto })
  @ApiResponse({ status: 200, type: TriggerCallsResponseDto })
  @ApiResponse({ status: 404, description: 'Unknown campaign, or one of another organization' })
  @ApiResponse({
    status: 422,
    description: 'Validation Error (also: not exactly one of target_ids and count)',
  })
  async trigger(
    @Auth() auth: AuthContext,
    @Param('campaign_id') campaignId: string,
    @Body() body: TriggerCallsDto,
    @Req() req: { body: unknown },
  ) {
    const hasIds = body.target_ids !== undefined && body.target_ids !== null;
    const hasCount = body.count !== undefined && body.count !== null;
    if (hasIds === hasCount) {
      throw new InvalidInputError(EXACTLY_ONE_SELECTOR, ['body'], req.body);
    }
    return this.triggers.trigger(
      auth.organizationId,
      campaignId,
      hasIds
        ? { targetIds: body.target_ids! }
        : { count: body.count!, prioritizeOldest: body.prioritize_oldest },
    );
  }
}
