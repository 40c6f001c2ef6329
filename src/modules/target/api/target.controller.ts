import { Operation } from '../../../common/http/api-operation.js';
import {
  Audit,
  type AuditedRequest,
  bodyList,
  listedIds,
} from '../../../common/audit/audit.decorators.js';
import { Body, Controller, Delete, Get, HttpCode, Param, Patch, Post, Query } from '@nestjs/common';
import { requireCampaignReach } from '../../../common/auth/auth-context.js';
import { ApiBody, ApiParam, ApiResponse, ApiTags } from '@nestjs/swagger';
import {
  Auth,
  type AuthContext,
  RequiresPermission,
  CampaignScope,
} from '../../../common/http/auth.decorators.js';
import { lowerBound, upperBound } from '../../../common/dates/date-bounds.js';
import { pageEnvelope } from '../../../common/paging/paging.js';
import { AppConfig } from '../../../config/app-config.js';
import { principalActor } from '../application/ports/target-event-log.js';
import { TargetService } from '../application/target.service.js';
import { AddTargetsDto, AddTargetsResponseDto } from './dto/add-targets.dto.js';
import { DeleteTargetsDto, DeleteTargetsResponseDto } from './dto/delete-targets.dto.js';
import { ListTargetsQueryDto } from './dto/list-targets.query.dto.js';
import {
  PaginatedTargetsResponseDto,
  TargetDetailResponseDto,
  TargetResponseDto,
  TargetWithEhrIdsResponseDto,
} from './dto/target-response.dto.js';
import { ReviewTargetDto } from './dto/review-target.dto.js';
import { ListTargetEventsQueryDto, TargetEventsResponseDto } from './dto/target-events.dto.js';
import { TargetTimelineService } from '../application/target-timeline.service.js';
import { presentTimelineEntry } from './timeline.presenter.js';
import { decodeTimelineCursor, encodeTimelineCursor } from './timeline-cursor.js';
import { UpdateTargetInputDataDto } from './dto/update-target-input.dto.js';
import { presentTarget } from './target.presenter.js';
import { ComplianceService } from '../../compliance/application/compliance.service.js';
import { toAddTargetsCommand } from './target.request-mapper.js';
import { decodeTargetCursor, encodeTargetCursor } from './target-cursor.js';

const CONFLICT = { schema: { example: { detail: 'Target ids already exist: ...' } } };
const CAMPAIGN_ID = { name: 'campaign_id', description: 'The ID of the campaign.' };
const TARGET_ID = { name: 'target_id', description: 'The ID of the target.' };

@ApiTags('targets')
@Controller('api/v1')
export class TargetController {
  constructor(
    private readonly targets: TargetService,
    private readonly timelines: TargetTimelineService,
    private readonly config: AppConfig,
    private readonly compliance: ComplianceService,
  ) {}

  @RequiresPermission('targets.write')
  @Audit({
    action: 'target.create',
    resource: 'target',
    ids: (_req, r) => (r as { target_ids?: string[] }).target_ids,
    fields: targetFields,
  })
  @Post('campaigns/:campaign_id/targets')
  @HttpCode(200)
  @Operation(
    'add_targets_api_v1_campaigns__campaign_id__targets_post',
    'Add Targets',
    'Adds up to 10000 targets to a campaign, all or nothing. A target whose external id is already in ' +
      'the campaign is ignored (allow_duplicates=true) or refuses the whole request with 409 (false). ' +
      'New targets are Pending (Waiting with an entry step); launch=true schedules them at once.',
  )
  @ApiParam(CAMPAIGN_ID)
  @ApiBody({ type: AddTargetsDto })
  @ApiResponse({ status: 200, type: AddTargetsResponseDto })
  @ApiResponse({
    status: 409,
    description: 'An id already exists, or duplicates with allow_duplicates=false',
    ...CONFLICT,
  })
  async add(
    @Auth() auth: AuthContext,
    @Param('campaign_id') campaignId: string,
    @Body() body: AddTargetsDto,
  ) {
    const result = await this.targets.addTargets(
      auth.organizationId,
      campaignId,
      toAddTargetsCommand(body),
      principalActor(auth.principal),
    );
    return {
      created: result.created,
      ignored: result.ignored.map((i) => ({ index: i.index, external_id: i.externalId })),
      target_ids: result.targetIds,
    };
  }

  @RequiresPermission('targets.write')
  @Audit({ action: 'target.delete', resource: 'target', ids: bodyList('target_ids') })
  @Delete('campaigns/:campaign_id/targets')
  @HttpCode(200)
  @Operation(
    'delete_targets_api_v1_campaigns__campaign_id__targets_delete',
    'Delete Targets',
    'Deletes the named targets of the campaign, except those being called or processed (skipped). ' +
      'Unknown ids are listed in not_found. Call logs outlive their target.',
  )
  @ApiParam(CAMPAIGN_ID)
  @ApiBody({ type: DeleteTargetsDto })
  @ApiResponse({ status: 200, type: DeleteTargetsResponseDto })
  async delete(
    @Auth() auth: AuthContext,
    @Param('campaign_id') campaignId: string,
    @Body() body: DeleteTargetsDto,
  ) {
    const result = await this.targets.deleteTargets(
      auth.organizationId,
      campaignId,
      body.target_ids,
      principalActor(auth.principal),
    );
    return { deleted: result.deleted, not_found: result.notFound, skipped: result.skipped };
  }

  @RequiresPermission('targets.read')
  @Audit({ action: 'target.list', resource: 'target', ids: listedIds('targets') })
  @Get('campaigns/:campaign_id/targets')
  @Operation(
    'get_campaign_targets_api_v1_campaigns__campaign_id__targets_get',
    'Get Campaign Targets',
    'The targets of a campaign by (created_at, id), a page at a time, filtered by status and by ' +
      'creation and last-call dates (inclusive; a date-only upper bound covers that day).',
  )
  @ApiParam(CAMPAIGN_ID)
  @ApiResponse({ status: 200, type: PaginatedTargetsResponseDto })
  list(
    @Auth() auth: AuthContext,
    @Param('campaign_id') campaignId: string,
    @Query() query: ListTargetsQueryDto,
  ) {
    return this.page(auth, campaignId, query);
  }

  @RequiresPermission('targets.read')
  @Audit({ action: 'target.list', resource: 'target', ids: listedIds('targets') })
  @Get('campaigns/:campaign_id/patient/targets')
  @Operation(
    'get_patient_campaign_targets_api_v1_campaigns__campaign_id__patient_targets_get',
    'Get Patient Campaign Targets',
    'The same targets and Target shape as the campaign target list (see docs/targets.md).',
  )
  @ApiParam(CAMPAIGN_ID)
  @ApiResponse({ status: 200, type: PaginatedTargetsResponseDto })
  listPatient(
    @Auth() auth: AuthContext,
    @Param('campaign_id') campaignId: string,
    @Query() query: ListTargetsQueryDto,
  ) {
    return this.page(auth, campaignId, query);
  }

  @RequiresPermission('targets.read')
  @CampaignScope('handler')
  @Audit({ action: 'target.read', resource: 'target' })
  @Get('targets/:target_id')
  @Operation(
    'retrieve_target_api_v1_targets__target_id__get',
    'Retrieve Target',
    "One target of the caller's organization, with its status and outcome, and waiting_reason: " +
      'why it is not being called right now (null when final or in a call).',
  )
  @ApiParam(TARGET_ID)
  @ApiResponse({ status: 200, type: TargetDetailResponseDto })
  async get(@Auth() auth: AuthContext, @Param('target_id') targetId: string) {
    const target = await this.targets.get(auth.organizationId, targetId);
    requireCampaignReach(auth, target.campaignId, `Target ${targetId} not found`);
    const policy = await this.compliance.policy(auth.organizationId);
    const place = this.compliance.place(target.timeZone, target.phoneNumber, policy);
    return {
      ...presentTarget(target, this.baseUrl),
      waiting_reason: await this.timelines.waitingReason(target),
      time_zones: place.zones,
      time_zone_source: place.zoneSource,
      region: place.region,
    };
  }

  @RequiresPermission('targets.read')
  @CampaignScope('handler')
  @Audit({ action: 'target.timeline', resource: 'target' })
  @Get('targets/:target_id/events')
  @Operation(
    'list_target_events_api_v1_targets__target_id__events_get',
    'List Target Events',
    "The target's history, newest first: every state change, call started and ended, input edit, " +
      'step payload and notification, with when, who or what caused it (API key, worker, provider) ' +
      'and why in words. Page with next_cursor. A deleted target keeps its history (ending with ' +
      '`deleted`). See docs/targets.md, "Why not called yet".',
  )
  @ApiParam(TARGET_ID)
  @ApiResponse({ status: 200, type: TargetEventsResponseDto })
  async events(
    @Auth() auth: AuthContext,
    @Param('target_id') targetId: string,
    @Query() query: ListTargetEventsQueryDto,
  ) {
    await this.requireReach(auth, targetId);
    // The DTO refused any cursor that does not decode.
    const before = query.cursor !== undefined ? decodeTimelineCursor(query.cursor)! : null;
    const page = await this.timelines.timeline(auth.organizationId, targetId, before, query.limit);
    return {
      items: page.entries.map(presentTimelineEntry),
      next_cursor: page.next ? encodeTimelineCursor(page.next) : null,
    };
  }

  @RequiresPermission('targets.write')
  @CampaignScope('handler')
  @Audit({ action: 'target.update', resource: 'target', fields: inputDataFields })
  @Patch('targets/:target_id')
  @Operation(
    'update_target_input_data_api_v1_targets__target_id__patch',
    'Update Target Input Data',
    "Merges the keys sent into the target's input_data (one level deep). With only_if_not_started " +
      '(the default) a target that has started answers 409.',
  )
  @ApiParam(TARGET_ID)
  @ApiBody({ type: UpdateTargetInputDataDto })
  @ApiResponse({ status: 200, type: TargetWithEhrIdsResponseDto })
  @ApiResponse({
    status: 409,
    description: 'The target has started and only_if_not_started is true',
    schema: { example: { detail: 'Target ... has already started; ...' } },
  })
  async update(
    @Auth() auth: AuthContext,
    @Param('target_id') targetId: string,
    @Body() body: UpdateTargetInputDataDto,
  ) {
    await this.requireReach(auth, targetId);
    const target = await this.targets.updateInputData(
      auth.organizationId,
      targetId,
      body.input_data,
      body.only_if_not_started,
      principalActor(auth.principal),
      body.time_zone,
    );
    return presentTarget(target, this.baseUrl, true);
  }

  @RequiresPermission('targets.review')
  @CampaignScope('handler')
  @Audit({ action: 'target.review', resource: 'target' })
  @Post('targets/:target_id/review')
  @HttpCode(200)
  @Operation(
    'review_target_api_v1_targets__target_id__review_post',
    'Review Target',
    'A person\'s decision on a target To review: "done" ends it Finished (outcome, category and ' +
      'resolution kept); "requeue" makes it Scheduled, due now, for one more attempt even when the ' +
      "campaign's max_attempts were used. Either way statistics.review records {action, at}. Only " +
      'from To review (else 409 naming the current status); a requeue in a cancelled campaign is 409.',
  )
  @ApiParam(TARGET_ID)
  @ApiBody({ type: ReviewTargetDto })
  @ApiResponse({ status: 200, type: TargetResponseDto })
  @ApiResponse({
    status: 409,
    description: 'The target is not To review, or (requeue) its campaign is cancelled',
    schema: {
      example: {
        detail:
          'Target ... is Finished, not To review; only a target To review can be marked done or re-queued',
      },
    },
  })
  async review(
    @Auth() auth: AuthContext,
    @Param('target_id') targetId: string,
    @Body() body: ReviewTargetDto,
  ) {
    await this.requireReach(auth, targetId);
    const target = await this.targets.review(
      auth.organizationId,
      targetId,
      body.action,
      principalActor(auth.principal),
    );
    return presentTarget(target, this.baseUrl);
  }

  /** Before acting for a campaign-limited key: its target's campaign (a target never moves). */
  private async requireReach(auth: AuthContext, targetId: string): Promise<void> {
    if (auth.campaignIds === null) return;
    const { campaignId } = await this.targets.get(auth.organizationId, targetId);
    requireCampaignReach(auth, campaignId, `Target ${targetId} not found`);
  }

  private async page(auth: AuthContext, campaignId: string, query: ListTargetsQueryDto) {
    const paging = { page: query.page, limit: query.limit };
    // The DTO refused any cursor that does not decode.
    const after = query.cursor !== undefined ? decodeTargetCursor(query.cursor)! : undefined;
    const { targets, total, next } = await this.targets.list(
      auth.organizationId,
      campaignId,
      {
        status: query.status,
        externalId: query.external_id,
        search: query.search,
        createdFrom: lowerBound(query.from_date) ?? undefined,
        createdTo: upperBound(query.to_date) ?? undefined,
        lastCallFrom: lowerBound(query.from_last_call_date) ?? undefined,
        lastCallTo: upperBound(query.to_last_call_date) ?? undefined,
      },
      { ...paging, after },
    );
    const envelope = pageEnvelope(paging, total);
    return {
      targets: targets.map((t) => presentTarget(t, this.baseUrl)),
      page_count: envelope.page_count,
      next_page: after ? null : envelope.next_page,
      next_cursor: next ? encodeTargetCursor(next) : null,
    };
  }

  private get baseUrl(): string {
    return this.config.get('PUBLIC_BASE_URL');
  }
}

/** The fields targets were added with (names only: their values are patient data). */
function targetFields(req: AuditedRequest): string[] {
  const targets = (req.body as { targets?: unknown[] } | undefined)?.targets ?? [];
  const fields = new Set<string>();
  for (const t of targets) {
    if (typeof t !== 'object' || t === null) continue;
    for (const [key, value] of Object.entries(t)) {
      if (key === 'input_data' && typeof value === 'object' && value !== null) {
        Object.keys(value).forEach((k) => fields.add(`input_data.${k}`));
      } else fields.add(key);
    }
  }
  return [...fields].sort();
}

/** The input data keys a PATCH merged, and the time zone if it set one. */
function inputDataFields(req: AuditedRequest): string[] {
  const body = (req.body ?? {}) as { input_data?: object; time_zone?: unknown };
  const fields = Object.keys(body.input_data ?? {}).map((k) => `input_data.${k}`);
  return body.time_zone !== undefined ? [...fields, 'time_zone'] : fields;
}
