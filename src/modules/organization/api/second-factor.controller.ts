import { Operation } from '../../../common/http/api-operation.js';
import { Audit, NotAudited } from '../../../common/audit/audit.decorators.js';
import { Body, Controller, Delete, Get, HttpCode, Param, Post, Put } from '@nestjs/common';
import { ApiOkResponse, ApiResponse, ApiTags } from '@nestjs/swagger';
import {
  Auth,
  type AuthContext,
  CampaignScope,
  RequiresPermission,
} from '../../../common/http/auth.decorators.js';
import { SecondFactorService } from '../application/second-factor.service.js';
import { SignInPolicyDto, TotpCodeDto, TotpSetupResponseDto } from './dto/session.dto.js';

/** The optional second factor (TOTP), and the organization's rule requiring it (docs/access.md). */
@ApiTags('sessions')
@Controller('api/v1')
export class SecondFactorController {
  constructor(private readonly secondFactor: SecondFactorService) {}

  @Audit({ action: 'totp.start', resource: 'user' })
  @Post('me/totp')
  @HttpCode(201)
  @RequiresPermission('self.session')
  @CampaignScope('filtered')
  @Operation(
    'start_totp_api_v1_me_totp_post',
    'Set up a second factor',
    'A new TOTP secret for your authenticator app (scan `otpauth_uri` as a QR code); it is in use ' +
      'once confirmed with a code. A person only; 409 once one is in use.',
  )
  @ApiResponse({ status: 201, type: TotpSetupResponseDto })
  @ApiResponse({ status: 409, description: 'A key, or a second factor already in use' })
  async start(@Auth() auth: AuthContext) {
    const { secret, uri } = await this.secondFactor.start(auth);
    return { secret, otpauth_uri: uri };
  }

  @Audit({ action: 'totp.confirm', resource: 'user' })
  @Post('me/totp/confirm')
  @HttpCode(200)
  @RequiresPermission('self.session')
  @CampaignScope('filtered')
  @Operation(
    'confirm_totp_api_v1_me_totp_confirm_post',
    'Confirm the second factor',
    'A code from the app puts the secret in use: sign-ins need a code from then on.',
  )
  @ApiOkResponse({ schema: { properties: { totp_enabled: { type: 'boolean', enum: [true] } } } })
  @ApiResponse({ status: 409, description: 'Nothing being set up, or already in use' })
  async confirm(@Auth() auth: AuthContext, @Body() body: TotpCodeDto) {
    await this.secondFactor.confirm(auth, body.code);
    return { totp_enabled: true };
  }

  @Audit({ action: 'totp.reset', resource: 'user' })
  @Delete('users/:user_id/totp')
  @RequiresPermission('users.manage')
  @Operation(
    'reset_totp_api_v1_users__user_id__totp_delete',
    "Reset a person's second factor",
    'For a lost phone: the person signs in with the password alone and sets up a new one.',
  )
  @ApiOkResponse({ schema: { properties: { totp_enabled: { type: 'boolean', enum: [false] } } } })
  async reset(@Auth() auth: AuthContext, @Param('user_id') userId: string) {
    await this.secondFactor.reset(auth.organizationId, userId);
    return { totp_enabled: false };
  }

  @NotAudited()
  @Get('sign-in-policy')
  @RequiresPermission('users.manage')
  @Operation(
    'get_sign_in_policy_api_v1_sign_in_policy_get',
    'Sign-in policy',
    'Whether the organization requires a second factor of every person.',
  )
  @ApiOkResponse({ type: SignInPolicyDto })
  async policy(@Auth() auth: AuthContext) {
    return { require_totp: await this.secondFactor.required(auth.organizationId) };
  }

  @Audit<SecondFactorController>({
    action: 'sign_in_policy.update',
    resource: 'sign_in_policy',
    values: { before: (c, auth) => c.policy(auth) },
  })
  @Put('sign-in-policy')
  @RequiresPermission('users.manage')
  @Operation(
    'put_sign_in_policy_api_v1_sign_in_policy_put',
    'Change the sign-in policy',
    'With `require_totp`, a person without a second factor may, once signed in, only set one up.',
  )
  @ApiOkResponse({ type: SignInPolicyDto })
  async setPolicy(@Auth() auth: AuthContext, @Body() body: SignInPolicyDto) {
    await this.secondFactor.setRequired(auth.organizationId, body.require_totp);
    return { require_totp: body.require_totp };
  }
}
