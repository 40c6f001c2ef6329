import { Controller, Delete, Param } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiProperty, ApiTags } from '@nestjs/swagger';
import { Auth, type AuthContext } from '../../../common/http/auth.decorators.js';
import { OrganizationService } from '../application/organization.service.js';

class RevokedApiKeyResponseDto {
  @ApiProperty({ type: 'string', format: 'uuid' }) id: string;
  @ApiProperty({ type: 'string', enum: ['revoked'] }) status: 'revoked';
}

@ApiTags('api-keys')
@Controller('api/v1/api-keys')
export class ApiKeyController {
  constructor(private readonly organizations: OrganizationService) {}

  /** Revokes one of the caller's organization's keys (the calling key too, if it names itself). */
  @Delete(':api_key_id')
  @ApiOperation({
    operationId: 'delete_api_key_api_v1_api_keys__api_key_id__delete',
    summary: 'Delete Api Key',
    description:
      "Revokes one of the caller's organization's API keys at once (the calling key too, if it names " +
      'itself). Keys are created with the CLI.',
  })
  @ApiOkResponse({ type: RevokedApiKeyResponseDto })
  async revoke(@Auth() auth: AuthContext, @Param('api_key_id') apiKeyId: string) {
    await this.organizations.revokeApiKey(apiKeyId, auth.organizationId);
    return { id: apiKeyId, status: 'revoked' };
  }
}
