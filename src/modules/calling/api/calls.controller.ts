import { Operation } from '../../../common/http/api-operation.js';
import { Audit, bodyList } from '../../../common/audit/audit.decorators.js';
import { principalActor } from '../../target/application/ports/target-event-log.js';
import { Body, Controller, HttpCode, Param, Post } from '@nestjs/common';
import { ApiBody, ApiParam, ApiResponse, ApiTags } from '@nestjs/swagger';
import {
  Auth,
  type AuthContext,
  RequiresPermission,
} from '../../../common/http/auth.decorators.js';
import { TriggerService } from '../application/trigger.service.js';
import { TriggerCallsDto, TriggerCallsResponseDto } from './dto/trigger-calls.dto.js';

@ApiTags('calls')
@Controller('api/v1/campaigns/:campaign_id/calls')
export class CallsController {
  constructor(private readonly triggers: TriggerService) {}

  @RequiresPermission('calls.trigger')
  @Audit({ action: 'call.trigger', resource: 'target', ids: bodyList('target_ids') })
  @Post()
  @HttpCode(200)
  @Operation(
    'campaign_calls_api_v1_campaigns__campaign_id__calls_post',
    'Campaign Calls',
    'Schedules calls: the named Pending targets (`target_ids`), or `count` Pending targets picked at random ' +
      '(oldest first with `prioritize_oldest`). Exactly one of target_ids and count. Claiming is atomic: ' +
      'concurrent triggers never schedule a target twice.',
  )
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
  ) {
    // The DTO has made sure exactly one of the two is given.
    return this.triggers.trigger(
      auth.organizationId,
      campaignId,
      body.target_ids != null
        ? { targetIds: body.target_ids }
        : { count: body.count!, prioritizeOldest: body.prioritize_oldest },
      principalActor(auth.principal),
    );
  }
}
