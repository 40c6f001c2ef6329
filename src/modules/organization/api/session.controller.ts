import { Operation } from '../../../common/http/api-operation.js';
import { Audit, NotAudited } from '../../../common/audit/audit.decorators.js';
import { Body, Controller, Delete, Get, HttpCode, Post, Req, Res } from '@nestjs/common';
import { ApiOkResponse, ApiResponse, ApiTags } from '@nestjs/swagger';
import type { Request, Response } from 'express';
import { ROLE_PERMISSIONS } from '../../../common/auth/access.js';
import { clientAddress } from '../../../common/http/auth-failure-limiter.js';
import {
  Auth,
  type AuthContext,
  CampaignScope,
  Public,
  RequiresPermission,
} from '../../../common/http/auth.decorators.js';
import { PeopleService } from '../application/people.service.js';
import { SessionService } from '../application/session.service.js';
import { AcceptInvitationDto, UserResponseDto } from './dto/user.dto.js';
import { MeResponseDto, SignInDto } from './dto/session.dto.js';
import { clearSessionCookie, setSessionCookie } from './session-cookie.js';
import { presentUser } from './user.controller.js';

export function presentMe(auth: AuthContext): MeResponseDto {
  const { principal, session } = auth;
  return {
    kind: principal.kind,
    id: principal.id,
    name: principal.name,
    email: principal.kind === 'user' ? principal.email : null,
    role: auth.role,
    campaign_ids: auth.campaignIds,
    organization_id: auth.organizationId,
    permissions: [...ROLE_PERMISSIONS[auth.role]],
    session: session
      ? {
          csrf_token: session.csrfToken,
          idle_expires_at: session.endsAt.toISOString(),
          expires_at: session.maxEndsAt.toISOString(),
        }
      : null,
    totp: session ? { enabled: session.totpEnabled, required: session.totpRequired } : null,
  };
}

/** Signing in and out, who you are, and accepting an invitation (docs/access.md). */
@ApiTags('sessions')
@Controller('api/v1')
export class SessionController {
  constructor(
    private readonly sessions: SessionService,
    private readonly people: PeopleService,
  ) {}

  @Post('sessions')
  @Public()
  @HttpCode(201)
  @Operation(
    'sign_in_api_v1_sessions_post',
    'Sign in',
    'Email and password. Sets the `ccs_session` cookie (HttpOnly, Secure, SameSite=Strict) and ' +
      'answers who you are with the `csrf_token` that every signed-in request changing something ' +
      'sends as `X-CSRF-Token`. A person with a second factor sends `totp_code` too (401 asking for ' +
      'it when left out). Wrong email or password: 401, the same for both. Too many failures ' +
      'for the account or the client address: 429 until the lockout ends, right password or not.',
  )
  @ApiResponse({ status: 201, type: MeResponseDto })
  @ApiResponse({
    status: 401,
    description: 'Wrong email or password, or the code is missing or wrong',
  })
  @ApiResponse({ status: 429, description: 'Too many failed sign-ins for the account or address' })
  async signIn(
    @Body() body: SignInDto,
    @Req() req: Request,
    @Res({ passthrough: true }) res: Response,
  ) {
    const { token, auth } = await this.sessions.signIn(
      body.email,
      body.password,
      clientAddress(req),
      body.totp_code,
    );
    setSessionCookie(res, token);
    return presentMe(auth);
  }

  @Audit({ action: 'session.sign_out', resource: 'session' })
  @Delete('sessions/current')
  @RequiresPermission('self.session')
  @CampaignScope('filtered')
  @Operation(
    'sign_out_api_v1_sessions_current_delete',
    'Sign out',
    'Ends the signed-in session and clears its cookie. A key has no session: 200 all the same.',
  )
  @ApiOkResponse({ schema: { properties: { status: { type: 'string', enum: ['signed_out'] } } } })
  async signOut(@Auth() auth: AuthContext, @Res({ passthrough: true }) res: Response) {
    if (auth.session) await this.sessions.signOut(auth.session.id);
    clearSessionCookie(res);
    return { status: 'signed_out' };
  }

  @NotAudited()
  @Get('me')
  @RequiresPermission('self.session')
  @CampaignScope('filtered')
  @Operation(
    'me_api_v1_me_get',
    'Who you are',
    'The signed-in person or the key: role, campaigns, permissions, and for a session its CSRF ' +
      'token and when it ends.',
  )
  @ApiOkResponse({ type: MeResponseDto })
  me(@Auth() auth: AuthContext) {
    return presentMe(auth);
  }

  @Post('invitations/accept')
  @Public()
  @HttpCode(200)
  @Operation(
    'accept_invitation_api_v1_invitations_accept_post',
    'Set a password through an invitation',
    'Once per invitation, before it expires (404 otherwise). The password has at least 12 ' +
      "characters; setting it ends the person's other sessions. Then sign in.",
  )
  @ApiOkResponse({ type: UserResponseDto })
  @ApiResponse({ status: 404, description: 'The invitation is unknown, used or expired' })
  async accept(@Body() body: AcceptInvitationDto, @Req() req: Request) {
    return presentUser(await this.people.accept(body.token, body.password, clientAddress(req)));
  }
}
