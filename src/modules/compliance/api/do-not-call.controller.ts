import { Operation } from '../../../common/http/api-operation.js';
import { Audit, bodyList } from '../../../common/audit/audit.decorators.js';
import { Body, Controller, Delete, Get, HttpCode, Post, Query } from '@nestjs/common';
import { ApiOkResponse, ApiTags } from '@nestjs/swagger';
import {
  Auth,
  type AuthContext,
  RequiresPermission,
} from '../../../common/http/auth.decorators.js';
import { ComplianceService } from '../application/compliance.service.js';
import { DoNotCallService } from '../application/do-not-call.service.js';
import { type ChangeActor, changeActorOf } from '../domain/change-actor.js';
import type { DoNotCallEntry } from '../domain/do-not-call.js';
import {
  AddDoNotCallNumbersDto,
  DoNotCallAddedResponseDto,
  DoNotCallPageResponseDto,
  DoNotCallRemovedResponseDto,
  ListDoNotCallQueryDto,
  RemoveDoNotCallNumbersDto,
} from './dto/do-not-call.dto.js';

const presentActor = (a: ChangeActor) => ({ type: a.type, id: a.id, name: a.name });

const presentSource = (s: DoNotCallEntry['source']) => {
  switch (s.type) {
    case 'call':
      return {
        type: s.type,
        campaign_id: s.campaignId,
        target_id: s.targetId,
        call_log_id: s.callLogId,
      };
    case 'sms':
      return {
        type: s.type,
        message_id: s.messageId,
        campaign_id: s.campaignId,
        target_id: s.targetId,
      };
    case 'api':
      return { type: s.type, added_by: presentActor(s.addedBy) };
  }
};

const present = (e: DoNotCallEntry) => ({
  phone_number: e.phoneNumber,
  reason: e.reason,
  source: presentSource(e.source),
  created_at: e.createdAt.toISOString(),
  removed: e.removal && {
    removed_at: e.removal.at.toISOString(),
    reason: e.removal.reason,
    removed_by: presentActor(e.removal.removedBy),
  },
});

@ApiTags('compliance')
@Controller('api/v1/compliance/do-not-call')
export class DoNotCallController {
  constructor(
    private readonly doNotCall: DoNotCallService,
    private readonly compliance: ComplianceService,
  ) {}

  /** The country the organization's national numbers are read in. */
  private async countryOf(organizationId: string): Promise<string> {
    return (await this.compliance.policy(organizationId)).defaultCountry;
  }

  @RequiresPermission('do_not_call.read')
  @Audit({ action: 'do_not_call.list', resource: 'do_not_call' })
  @Get()
  @Operation(
    'list_do_not_call_api_v1_compliance_do_not_call_get',
    'List the do-not-call list',
    "The organization's listed numbers, oldest first, `limit` at a time after skipping `skip`, " +
      'with the total; `phone_number` keeps the numbers containing its digits; `include_removed=true` ' +
      'adds the listings taken off (the history).',
  )
  @ApiOkResponse({ type: DoNotCallPageResponseDto })
  async list(@Auth() auth: AuthContext, @Query() query: ListDoNotCallQueryDto) {
    const { items, total } = await this.doNotCall.list(auth.organizationId, {
      skip: query.skip,
      limit: query.limit,
      phoneNumber: query.phone_number ?? null,
      includeRemoved: query.include_removed,
    });
    return { phone_numbers: items.map(present), total };
  }

  @RequiresPermission('do_not_call.add')
  @Audit({
    action: 'do_not_call.add',
    resource: 'do_not_call',
    ids: bodyList('phone_numbers', 'phone_number'),
  })
  @Post()
  @HttpCode(200)
  @Operation(
    'add_do_not_call_api_v1_compliance_do_not_call_post',
    'Add numbers to the do-not-call list',
    'Lists the numbers (normalised to E.164) for every campaign of the organization, whatever their ' +
      'blacklists: none of them dials a listed number. A number already listed keeps its first entry.',
  )
  @ApiOkResponse({ type: DoNotCallAddedResponseDto })
  async add(@Auth() auth: AuthContext, @Body() body: AddDoNotCallNumbersDto) {
    const { added, alreadyListed } = await this.doNotCall.add(
      auth.organizationId,
      changeActorOf(auth.principal),
      body.phone_numbers,
      await this.countryOf(auth.organizationId),
    );
    return { added: added.map(present), already_listed: alreadyListed.map(present) };
  }

  @RequiresPermission('do_not_call.remove')
  @Audit({ action: 'do_not_call.remove', resource: 'do_not_call', ids: bodyList('phone_numbers') })
  @Delete()
  @Operation(
    'remove_do_not_call_api_v1_compliance_do_not_call_delete',
    'Remove numbers from the do-not-call list',
    'Takes the numbers off the list (consent given again). Each removal is kept with its reason and ' +
      'who removed it (`GET ...?include_removed=true`).',
  )
  @ApiOkResponse({ type: DoNotCallRemovedResponseDto })
  async remove(@Auth() auth: AuthContext, @Body() body: RemoveDoNotCallNumbersDto) {
    const { removed, notListed } = await this.doNotCall.remove(
      auth.organizationId,
      changeActorOf(auth.principal),
      body.phone_numbers,
      body.reason,
      await this.countryOf(auth.organizationId),
    );
    return { removed: removed.map(present), not_listed: notListed };
  }
}
