import { Operation } from '../../../common/http/api-operation.js';
import { Audit, answerField } from '../../../common/audit/audit.decorators.js';
import { Controller, Get, Query } from '@nestjs/common';
import { ApiResponse, ApiTags } from '@nestjs/swagger';
import {
  Auth,
  type AuthContext,
  CampaignScope,
  RequiresPermission,
} from '../../../common/http/auth.decorators.js';
import { LiveCallService } from '../application/live-call.service.js';
import { LiveCallQueryDto } from './dto/live-call.dto.js';
import { presentLiveCall } from './live-call.presenter.js';

/** The reference's snapshot of one call, in flight or ended. */
@ApiTags('call-logs')
@Controller('api/v1/live-calls')
export class LiveCallsController {
  constructor(private readonly liveCalls: LiveCallService) {}

  @RequiresPermission('live_calls.read')
  @Audit({ action: 'live_call.read', resource: 'call_log', id: answerField('call_log_id') })
  @CampaignScope('filtered')
  @Get()
  @Operation(
    'get_live_call_api_v1_live_calls_get',
    'Get Live Call',
    'A flat snapshot of one call of the organization, by `call_log_id`, `user_phone_number` (the ' +
      "number called), or `key` + `value` (a field of the target's input data; dots reach nested " +
      'fields). The first of these given is used. A call not ended yet comes first (`source` ' +
      '`live_calls`), else the latest ended (`call_logs`). One level: every value is a string, number, ' +
      "boolean or null; an object's fields and a list's items (by index from 0) have dotted keys " +
      '(`input_data.patient.mrn`, `transcripts.0.message`); an empty object or list gives no key. ' +
      "A key limited to campaigns finds only its campaigns' calls.",
  )
  @ApiResponse({
    status: 200,
    schema: {
      type: 'object',
      additionalProperties: {
        oneOf: [{ type: 'string', nullable: true }, { type: 'number' }, { type: 'boolean' }],
      },
      title: 'Response Get Live Call',
    },
  })
  @ApiResponse({ status: 404, description: 'No call of the organization matches' })
  @ApiResponse({
    status: 422,
    description: 'Validation Error (also: no lookup given, key without value)',
  })
  async liveCall(@Auth() auth: AuthContext, @Query() q: LiveCallQueryDto) {
    const query =
      q.call_log_id != null
        ? { callLogId: q.call_log_id }
        : q.user_phone_number != null
          ? { userPhoneNumber: q.user_phone_number }
          : { key: q.key!, value: q.value! };
    return presentLiveCall(await this.liveCalls.find(auth.organizationId, query, auth.campaignIds));
  }
}
