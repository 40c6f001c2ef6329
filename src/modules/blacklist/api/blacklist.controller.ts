import { Operation } from '../../../common/http/api-operation.js';
import {
  Audit,
  NotAudited,
  answerField,
  bodyList,
} from '../../../common/audit/audit.decorators.js';
import { Body, Controller, Delete, Get, HttpCode, Param, Post, Query } from '@nestjs/common';
import { ApiCreatedResponse, ApiOkResponse, ApiTags } from '@nestjs/swagger';
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
  @Operation(
    'create_blacklist_api_v1_blacklists_post',
    'Create a blacklist',
    'A list of numbers never to dial. A campaign applies the blacklists named in its blacklist_ids.',
  )
  @ApiCreatedResponse({ type: BlacklistResponseDto })
  async create(@Auth() auth: AuthContext, @Body() body: CreateBlacklistDto) {
    return present(
      await this.blacklists.create(auth.organizationId, body.name, body.description ?? null),
    );
  }

  @RequiresPermission('blacklists.read')
  @NotAudited()
  @Get()
  @Operation(
    'list_blacklists_api_v1_blacklists_get',
    'List blacklists',
    "The caller's organization's blacklists, oldest first, a page at a time.",
  )
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
  @Operation(
    'get_blacklist_api_v1_blacklists__blacklist_id__get',
    'Get a blacklist',
    "One blacklist of the caller's organization (its numbers: GET .../phone-numbers).",
  )
  @ApiOkResponse({ type: BlacklistResponseDto })
  async get(@Auth() auth: AuthContext, @Param('blacklist_id') blacklistId: string) {
    return present(await this.blacklists.get(auth.organizationId, blacklistId));
  }

  @RequiresPermission('blacklists.write')
  @Audit({ action: 'blacklist_number.add', resource: 'blacklist', ids: bodyList('phone_numbers') })
  @Post(':blacklist_id/phone-numbers')
  @HttpCode(200)
  @Operation(
    'add_blacklist_phone_numbers_api_v1_blacklists__blacklist_id__phone_numbers_post',
    'Add or update phone numbers',
    'Adds the numbers (normalised to E.164) to the blacklist; a number already there gets the new ' +
      'reason, level, name and comment.',
  )
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
  @Operation(
    'remove_blacklist_phone_numbers_api_v1_blacklists__blacklist_id__phone_numbers_delete',
    'Remove phone numbers',
    'Takes the numbers off the blacklist; numbers not on it are ignored.',
  )
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
  @Operation(
    'list_blacklist_phone_numbers_api_v1_blacklists__blacklist_id__phone_numbers_get',
    'List Blacklist Phone Numbers',
    'The numbers of a blacklist, `limit` at a time after skipping `skip`, with the total.',
  )
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
