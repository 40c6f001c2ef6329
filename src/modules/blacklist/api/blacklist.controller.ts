import {
  Audit,
  NotAudited,
  answerField,
  bodyList,
} from '../../../common/audit/audit.decorators.js';
import { Body, Controller, Delete, Get, HttpCode, Param, Post, Query } from '@nestjs/common';
import { ApiCreatedResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import {
  Auth,
  type AuthContext,
  RequiresPermission,
} from '../../../common/http/auth.decorators.js';
import { offsetOf, pageEnvelope } from '../../../common/paging/paging.js';
import { BlacklistService } from '../application/blacklist.service.js';
import { Blacklist } from '../domain/blacklist.js';
import {
  AddBlacklistNumbersDto,
  BlacklistNumbersAddedResponseDto,
  BlacklistNumbersPageResponseDto,
  BlacklistNumbersRemovedResponseDto,
  BlacklistPageResponseDto,
  BlacklistResponseDto,
  CreateBlacklistDto,
  ListBlacklistNumbersQueryDto,
  ListBlacklistsQueryDto,
  RemoveBlacklistNumbersDto,
} from './dto/blacklist.dto.js';

const present = (b: Blacklist) => ({
  id: b.id,
  organization_id: b.organizationId,
  name: b.name,
  description: b.description,
  created_at: b.createdAt.toISOString(),
  updated_at: b.updatedAt.toISOString(),
});

@ApiTags('blacklists')
@Controller('api/v1/blacklists')
export class BlacklistController {
  constructor(private readonly blacklists: BlacklistService) {}

  @RequiresPermission('blacklists.write')
  @Audit({ action: 'blacklist.create', resource: 'blacklist', id: answerField('id'), values: {} })
  @Post()
  @HttpCode(201)
  @ApiOperation({
    operationId: 'create_blacklist_api_v1_blacklists_post',
    summary: 'Create a blacklist',
    description:
      'A list of numbers never to dial. A campaign applies the blacklists named in its blacklist_ids.',
  })
  @ApiCreatedResponse({ type: BlacklistResponseDto })
  async create(@Auth() auth: AuthContext, @Body() body: CreateBlacklistDto) {
    return present(
      await this.blacklists.create(auth.organizationId, body.name, body.description ?? null),
    );
  }

  @RequiresPermission('blacklists.read')
  @NotAudited()
  @Get()
  @ApiOperation({
    operationId: 'list_blacklists_api_v1_blacklists_get',
    summary: 'List blacklists',
    description: "The caller's organization's blacklists, oldest first, a page at a time.",
  })
  @ApiOkResponse({ type: BlacklistPageResponseDto })
  async list(@Auth() auth: AuthContext, @Query() query: ListBlacklistsQueryDto) {
    const { items, total } = await this.blacklists.list(
      auth.organizationId,
      offsetOf(query),
      query.limit,
    );
    return { blacklists: items.map(present), ...pageEnvelope(query, total) };
  }

  @RequiresPermission('blacklists.read')
  @NotAudited()
  @Get(':blacklist_id')
  @ApiOperation({
    operationId: 'get_blacklist_api_v1_blacklists__blacklist_id__get',
    summary: 'Get a blacklist',
    description: "One blacklist of the caller's organization (its numbers: GET .../phone-numbers).",
  })
  @ApiOkResponse({ type: BlacklistResponseDto })
  async get(@Auth() auth: AuthContext, @Param('blacklist_id') blacklistId: string) {
    return present(await this.blacklists.get(auth.organizationId, blacklistId));
  }

  @RequiresPermission('blacklists.write')
  @Audit({ action: 'blacklist_number.add', resource: 'blacklist', ids: bodyList('phone_numbers') })
  @Post(':blacklist_id/phone-numbers')
  @HttpCode(200)
  @ApiOperation({
    operationId: 'add_blacklist_phone_numbers_api_v1_blacklists__blacklist_id__phone_numbers_post',
    summary: 'Add or update phone numbers',
    description:
      'Adds the numbers (normalised to E.164) to the blacklist; a number already there gets the new ' +
      'reason, level, name and comment.',
  })
  @ApiOkResponse({ type: BlacklistNumbersAddedResponseDto })
  addNumbers(
    @Auth() auth: AuthContext,
    @Param('blacklist_id') blacklistId: string,
    @Body() body: AddBlacklistNumbersDto,
  ) {
    return this.blacklists.addNumbers(auth.organizationId, blacklistId, body.phone_numbers);
  }

  @RequiresPermission('blacklists.remove')
  @Audit({
    action: 'blacklist_number.remove',
    resource: 'blacklist',
    ids: bodyList('phone_numbers'),
  })
  @Delete(':blacklist_id/phone-numbers')
  @ApiOperation({
    operationId:
      'remove_blacklist_phone_numbers_api_v1_blacklists__blacklist_id__phone_numbers_delete',
    summary: 'Remove phone numbers',
    description: 'Takes the numbers off the blacklist; numbers not on it are ignored.',
  })
  @ApiOkResponse({ type: BlacklistNumbersRemovedResponseDto })
  removeNumbers(
    @Auth() auth: AuthContext,
    @Param('blacklist_id') blacklistId: string,
    @Body() body: RemoveBlacklistNumbersDto,
  ) {
    return this.blacklists.removeNumbers(auth.organizationId, blacklistId, body.phone_numbers);
  }

  @RequiresPermission('blacklists.read')
  @Audit({ action: 'blacklist_number.list', resource: 'blacklist' })
  @Get(':blacklist_id/phone-numbers')
  @ApiOperation({
    operationId: 'list_blacklist_phone_numbers_api_v1_blacklists__blacklist_id__phone_numbers_get',
    summary: 'List Blacklist Phone Numbers',
    description:
      'The numbers of a blacklist, `limit` at a time after skipping `skip`, with the total.',
  })
  @ApiOkResponse({ type: BlacklistNumbersPageResponseDto })
  async listNumbers(
    @Auth() auth: AuthContext,
    @Param('blacklist_id') blacklistId: string,
    @Query() query: ListBlacklistNumbersQueryDto,
  ) {
    const { items, total } = await this.blacklists.listNumbers(
      auth.organizationId,
      blacklistId,
      query,
    );
    return { phone_numbers: items, total };
  }
}
