import { Operation } from '../../../common/http/api-operation.js';
import { Audit, answerField, bodyList } from '../../../common/audit/audit.decorators.js';
import { Body, Controller, HttpCode, Param, Post } from '@nestjs/common';
import { ApiBody, ApiOkResponse, ApiParam, ApiTags } from '@nestjs/swagger';
import { InvalidInputError } from '../../../common/errors/domain-errors.js';
import {
  Auth,
  type AuthContext,
  RequiresPermission,
} from '../../../common/http/auth.decorators.js';
import { AppConfig } from '../../../config/app-config.js';
import { unstorableJsonError } from '../../../common/validation/storable.js';
import { OptionalJsonObject } from '../../../common/validation/pydantic-validation.pipe.js';
import { TargetWithEhrIdsResponseDto } from '../../target/api/dto/target-response.dto.js';
import { presentTarget } from '../../target/api/target.presenter.js';
import { BatchUpdate, StepService } from '../application/step.service.js';
import {
  BatchStepDto,
  BatchStepResponseDto,
  EhrEventDto,
  EhrEventResponseDto,
} from './dto/step.dto.js';

const CAMPAIGN_ID = { name: 'campaign_id', description: 'The ID of the campaign.' };
const FRIENDLY_ID = { name: 'friendly_id', description: 'The friendly ID of the step.' };
const TARGET_ID = { name: 'target_id', description: 'The ID of the target.' };

/** Inbound step data (DECISIONS: Steps): webhook steps, one target or a batch, and EHR events. */
@ApiTags('steps')
@Controller('api/v1/campaigns/:campaign_id')
export class StepController {
  constructor(
    private readonly steps: StepService,
    private readonly config: AppConfig,
  ) {}

  @RequiresPermission('steps.write')
  @Audit({ action: 'step.receive', resource: 'target' })
  @Post('targets/:target_id/step/:friendly_id')
  @HttpCode(200)
  @Operation(
    'receive_webhook_step_api_v1_campaigns__campaign_id__targets__target_id__step__friendly_id__post',
    'Receive Webhook Step',
    "Merges the body into the target's input_data one level deep. A target Waiting at this step moves " +
      'on: Pending (on_receive merge) or Scheduled now with its call dispatched (merge_and_schedule). ' +
      'Unknown campaign, target or step: 404. Posting to an ehr_event step: 422 on friendly_id.',
  )
  @ApiParam(TARGET_ID)
  @ApiParam(CAMPAIGN_ID)
  @ApiParam(FRIENDLY_ID)
  @ApiBody({
    required: false,
    schema: { type: 'object', additionalProperties: true, title: 'Target Data' },
    examples: { step: { value: { appointment_date: '2026-04-02', clinic: 'North' } } },
  })
  @ApiOkResponse({
    type: TargetWithEhrIdsResponseDto,
    description: 'The updated target, with pre_call_ehr_ids',
  })
  async receiveWebhookStep(
    @Auth() auth: AuthContext,
    @Param('campaign_id') campaignId: string,
    @Param('target_id') targetId: string,
    @Param('friendly_id') friendlyId: string,
    @Body() body: OptionalJsonObject,
  ) {
    // The pipe has located any unstorable string already; what is left to refuse is too deep a body.
    const unstorable = unstorableJsonError(body);
    if (unstorable) throw new InvalidInputError(unstorable, [], body);
    const target = await this.steps.receiveWebhookStep(
      auth,
      campaignId,
      targetId,
      friendlyId,
      body,
    );
    return presentTarget(target, this.config.get('PUBLIC_BASE_URL'), true);
  }

  @RequiresPermission('steps.write')
  @Audit({
    action: 'step.receive_batch',
    resource: 'target',
    ids: (req) =>
      (bodyList('updates')(req) as BatchUpdate[] | undefined)?.map(
        (u) => u.target_id ?? u.external_id,
      ) ?? [],
  })
  @Post('targets/step/:friendly_id')
  @HttpCode(200)
  @Operation(
    'receive_webhook_step_batch_api_v1_campaigns__campaign_id__targets_step__friendly_id__post',
    'Batch Receive Webhook Step',
    'Applies a webhook step to up to 5000 targets at once, all or nothing, with the same merge and move ' +
      'rules as the one-target operation. Updates naming no target of the campaign are listed in not_found.',
  )
  @ApiParam(CAMPAIGN_ID)
  @ApiParam(FRIENDLY_ID)
  @ApiBody({ type: BatchStepDto })
  @ApiOkResponse({ type: BatchStepResponseDto })
  async receiveWebhookStepBatch(
    @Auth() auth: AuthContext,
    @Param('campaign_id') campaignId: string,
    @Param('friendly_id') friendlyId: string,
    @Body() body: BatchStepDto,
  ): Promise<BatchStepResponseDto> {
    return this.steps.receiveWebhookStepBatch(auth, campaignId, friendlyId, body.updates);
  }

  @RequiresPermission('steps.write')
  @Audit({ action: 'ehr_event.receive', resource: 'target', id: answerField('target_id') })
  @Post('ehr-event/:friendly_id')
  @HttpCode(200)
  @Operation(
    'receive_ehr_event_step_api_v1_campaigns__campaign_id__ehr_event__friendly_id__post',
    'Receive Ehr Event Step',
    "Stores the event, merges event_data into the target's input_data, lists the event id in " +
      "pre_call_ehr_ids under its event_type ('unknown' without one) and moves a target Waiting at this " +
      'step on. target_id or external_id is required (422); unknown target: 404. Posting to a webhook ' +
      'step: 422 on friendly_id.',
  )
  @ApiParam(CAMPAIGN_ID)
  @ApiParam(FRIENDLY_ID)
  @ApiBody({ type: EhrEventDto })
  @ApiOkResponse({ type: EhrEventResponseDto })
  async receiveEhrEvent(
    @Auth() auth: AuthContext,
    @Param('campaign_id') campaignId: string,
    @Param('friendly_id') friendlyId: string,
    @Body() body: EhrEventDto,
  ) {
    const { eventId, target } = await this.steps.receiveEhrEvent(
      auth,
      campaignId,
      friendlyId,
      body,
    );
    return {
      event_id: eventId,
      target: presentTarget(target, this.config.get('PUBLIC_BASE_URL'), true),
    };
  }
}
