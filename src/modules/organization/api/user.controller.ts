import { Operation } from '../../../common/http/api-operation.js';
import { Audit, answerField, listedIds } from '../../../common/audit/audit.decorators.js';
import { Body, Controller, Delete, Get, HttpCode, Param, Patch, Post, Req } from '@nestjs/common';
import { ApiOkResponse, ApiResponse, ApiTags } from '@nestjs/swagger';
import type { Request } from 'express';
import {
  Auth,
  type AuthContext,
  RequiresPermission,
} from '../../../common/http/auth.decorators.js';
import { AppConfig } from '../../../config/app-config.js';
import { type Invitation, PeopleService } from '../application/people.service.js';
import { type User, userStatus } from '../domain/user.js';
import {
  CreateUserDto,
  InvitedUserResponseDto,
  UpdateUserDto,
  UserListResponseDto,
  UserResponseDto,
} from './dto/user.dto.js';

export function presentUser(u: User): UserResponseDto {
  return {
    id: u.id,
    email: u.email,
    name: u.name,
    role: u.role,
    campaign_ids: u.campaignIds,
    status: userStatus(u),
    created_at: u.createdAt.toISOString(),
    deactivated_at: u.deactivatedAt?.toISOString() ?? null,
  };
}

/** People of the organization, who sign in to the console: admin only (see docs/access.md). */
@ApiTags('users')
@Controller('api/v1/users')
export class UserController {
  constructor(
    private readonly people: PeopleService,
    private readonly config: AppConfig,
  ) {}

  @Audit({ action: 'user.create', resource: 'user', id: answerField('id'), values: {} })
  @Post()
  @HttpCode(201)
  @RequiresPermission('users.manage')
  @Operation(
    'create_user_api_v1_users_post',
    'Invite a person',
    "A person of the caller's organization with a role (not `integration`: that is for keys), " +
      'optionally limited to some campaigns. The answer carries a one-time `invitation` link to set a ' +
      'password, shown here only: there is no mail server, the admin hands it over. It expires ' +
      '(INVITATION_TTL).',
  )
  @ApiResponse({ status: 201, type: InvitedUserResponseDto })
  @ApiResponse({ status: 409, description: 'A person with that email exists' })
  async create(@Auth() auth: AuthContext, @Body() body: CreateUserDto, @Req() req: Request) {
    const { user, invitation } = await this.people.invite(auth.organizationId, {
      email: body.email,
      name: body.name,
      role: body.role,
      campaignIds: body.campaign_ids ?? null,
    });
    return { ...presentUser(user), invitation: this.presentInvitation(invitation, req) };
  }

  @Audit({ action: 'user.list', resource: 'user', ids: listedIds('users') })
  @Get()
  @RequiresPermission('users.manage')
  @Operation(
    'list_users_api_v1_users_get',
    'List people',
    "The caller's organization's people, deactivated ones too, oldest first.",
  )
  @ApiOkResponse({ type: UserListResponseDto })
  async list(@Auth() auth: AuthContext) {
    return { users: (await this.people.list(auth.organizationId)).map(presentUser) };
  }

  @Audit({ action: 'user.update', resource: 'user' })
  @Patch(':user_id')
  @RequiresPermission('users.manage')
  @Operation(
    'update_user_api_v1_users__user_id__patch',
    'Change a person',
    'Their name, role or campaigns; what is left out stays. Signed-in sessions follow at once.',
  )
  @ApiOkResponse({ type: UserResponseDto })
  async update(
    @Auth() auth: AuthContext,
    @Param('user_id') userId: string,
    @Body() body: UpdateUserDto,
  ) {
    const user = await this.people.change(auth.organizationId, userId, {
      name: body.name,
      role: body.role,
      campaignIds: body.campaign_ids,
    });
    return presentUser(user);
  }

  @Audit({ action: 'user.deactivate', resource: 'user' })
  @Delete(':user_id')
  @RequiresPermission('users.manage')
  @Operation(
    'delete_user_api_v1_users__user_id__delete',
    'Deactivate a person',
    'Their sessions end at once and they cannot sign in again; they stay listed, as `deactivated`.',
  )
  @ApiOkResponse({ type: UserResponseDto })
  async deactivate(@Auth() auth: AuthContext, @Param('user_id') userId: string) {
    return presentUser(await this.people.deactivate(auth.organizationId, userId));
  }

  @Audit({ action: 'user.reinvite', resource: 'user' })
  @Post(':user_id/invitations')
  @HttpCode(201)
  @RequiresPermission('users.manage')
  @Operation(
    'reinvite_user_api_v1_users__user_id__invitations_post',
    'Issue a new invitation',
    'A new one-time link to set a password (an expired invitation, a forgotten password); the ' +
      "person's earlier links stop working. Setting the password through it ends their sessions.",
  )
  @ApiResponse({ status: 201, type: InvitedUserResponseDto })
  async reinvite(@Auth() auth: AuthContext, @Param('user_id') userId: string, @Req() req: Request) {
    const { user, invitation } = await this.people.reinvite(auth.organizationId, userId);
    return { ...presentUser(user), invitation: this.presentInvitation(invitation, req) };
  }

  private presentInvitation(invitation: Invitation, req: Request) {
    const base = this.config.get('PUBLIC_BASE_URL') ?? `${req.protocol}://${req.get('host')}`;
    return {
      url: `${base.replace(/\/$/, '')}/console/#/invitation/${invitation.token}`,
      token: invitation.token,
      expires_at: invitation.expiresAt.toISOString(),
    };
  }
}
