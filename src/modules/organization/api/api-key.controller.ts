import { Operation } from '../../../common/http/api-operation.js';
import { Audit, answerField, listedIds } from '../../../common/audit/audit.decorators.js';
import { Body, Controller, Delete, Get, HttpCode, Param, Post } from '@nestjs/common';
import { ModuleRef } from '@nestjs/core';
import { ApiOkResponse, ApiProperty, ApiResponse, ApiTags } from '@nestjs/swagger';
import { lowerBound } from '../../../common/dates/date-bounds.js';
import { InvalidInputError } from '../../../common/errors/domain-errors.js';
import {
  Auth,
  type AuthContext,
  RequiresPermission,
} from '../../../common/http/auth.decorators.js';
import { OrganizationService } from '../application/organization.service.js';
import { OrganizationCampaigns } from '../application/ports/organization-campaigns.js';
import type { ApiKeyRecord } from '../domain/api-key.js';
import {
  ApiKeyListResponseDto,
  ApiKeyResponseDto,
  CreateApiKeyDto,
  CreatedApiKeyResponseDto,
} from './dto/api-key.dto.js';

class RevokedApiKeyResponseDto {
  @ApiProperty({ type: 'string', format: 'uuid' }) id: string;
  @ApiProperty({ type: 'string', enum: ['revoked'] }) status: 'revoked';
}

function presentApiKey(k: ApiKeyRecord): ApiKeyResponseDto {
  return {
    id: k.id,
    name: k.name,
    role: k.role,
    campaign_ids: k.campaignIds,
    key_prefix: k.keyPrefix,
    created_at: k.createdAt.toISOString(),
    last_used_at: k.lastUsedAt?.toISOString() ?? null,
    expires_at: k.expiresAt?.toISOString() ?? null,
    created_by: k.createdBy,
  };
}

/** The organization's API keys: admin only (see docs/access.md). */
@ApiTags('api-keys')
@Controller('api/v1/api-keys')
export class ApiKeyController {
  constructor(
    private readonly organizations: OrganizationService,
    private readonly modules: ModuleRef,
  ) {}

  @Audit({ action: 'api_key.create', resource: 'api_key', id: answerField('id'), values: {} })
  @Post()
  @HttpCode(201)
  @RequiresPermission('api_keys.manage')
  @Operation(
    'create_api_key_api_v1_api_keys_post',
    'Create Api Key',
    "A new key of the caller's organization with a role, optionally limited to some campaigns and " +
      'expiring. The answer carries the secret `key`: shown here only, never again.',
  )
  @ApiResponse({ status: 201, type: CreatedApiKeyResponseDto })
  async create(@Auth() auth: AuthContext, @Body() body: CreateApiKeyDto) {
    await this.requireOwnCampaigns(auth.organizationId, body.campaign_ids ?? []);
    const issued = await this.organizations.createApiKey(auth.organizationId, {
      name: body.name,
      role: body.role,
      campaignIds: body.campaign_ids ?? null,
      expiresAt: lowerBound(body.expires_at),
      createdBy: auth.apiKeyId,
    });
    return { ...presentApiKey(issued), key: issued.key };
  }

  /**
   * A key reaches only campaigns of its own organization: an id of another organization's campaign
   * (or of none) is a 422 at its place in the list, which says no more about it than a 404 would.
   *
   * The campaigns are looked up in the app rather than imported: every app imports this module (its
   * guard authenticates every request), and importing CampaignModule here would serve the campaign
   * routes in an app built without them. In such an app there is no campaign for a key to name.
   */
  private async requireOwnCampaigns(organizationId: string, campaignIds: string[]): Promise<void> {
    if (campaignIds.length === 0) return;
    let campaigns: OrganizationCampaigns | undefined;
    try {
      campaigns = this.modules.get(OrganizationCampaigns, { strict: false });
    } catch {
      campaigns = undefined;
    }
    const existing = campaigns ? await campaigns.existing(organizationId, campaignIds) : new Set();
    const i = campaignIds.findIndex((id) => !existing.has(id));
    if (i === -1) return;
    throw new InvalidInputError(
      `campaign ${campaignIds[i]} is not a campaign of this organization`,
      ['campaign_ids', i],
      campaignIds[i],
    );
  }

  @Audit({ action: 'api_key.list', resource: 'api_key', ids: listedIds('api_keys') })
  @Get()
  @RequiresPermission('api_keys.manage')
  @Operation(
    'list_api_keys_api_v1_api_keys_get',
    'List Api Keys',
    "The caller's organization's keys that are not revoked, oldest first, without their secrets.",
  )
  @ApiOkResponse({ type: ApiKeyListResponseDto })
  async list(@Auth() auth: AuthContext) {
    const keys = await this.organizations.listApiKeys(auth.organizationId);
    return { api_keys: keys.filter((k) => !k.revokedAt).map(presentApiKey) };
  }

  /** Revokes one of the caller's organization's keys (the calling key too, if it names itself). */
  @Audit({ action: 'api_key.revoke', resource: 'api_key' })
  @Delete(':api_key_id')
  @RequiresPermission('api_keys.manage')
  @Operation(
    'delete_api_key_api_v1_api_keys__api_key_id__delete',
    'Delete Api Key',
    "Revokes one of the caller's organization's API keys at once (the calling key too, if it names " +
      'itself).',
  )
  @ApiOkResponse({ type: RevokedApiKeyResponseDto })
  async revoke(@Auth() auth: AuthContext, @Param('api_key_id') apiKeyId: string) {
    await this.organizations.revokeApiKey(apiKeyId, auth.organizationId);
    return { id: apiKeyId, status: 'revoked' };
  }
}
