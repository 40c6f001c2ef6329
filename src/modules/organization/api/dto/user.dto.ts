import { DateTime } from '../../../../common/http/response-properties.js';
import { ApiProperty } from '@nestjs/swagger';
import {
  PyEnum,
  PyList,
  PyOptional,
  PyRequired,
  PyStr,
  PyValueRule,
  uuidError,
} from '../../../../common/validation/py-validators.js';
import { USER_ROLES, type UserRole } from '../../domain/user.js';

/** Enough to catch a typo; the invitation link proves the address is the person's. */
const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

export class CreateUserDto {
  @PyRequired({ example: 'dana@clinic.example' })
  @PyStr({ min: 3, max: 320 })
  @PyValueRule('email', (v) =>
    typeof v !== 'string' || EMAIL.test(v.trim()) ? null : 'email must be an email address',
  )
  email: string;

  @PyRequired({ example: 'Dana Reyes' })
  @PyStr({ min: 1, max: 200 })
  name: string;

  @PyRequired({ example: 'operator' })
  @PyEnum(USER_ROLES)
  role: UserRole;

  @PyOptional({
    type: [String],
    format: 'uuid',
    nullable: true,
    description: 'The only campaigns the person reaches; left out or null, every campaign.',
  })
  @PyList({ min: 1, max: 100 }, uuidError)
  campaign_ids?: string[] | null;
}

export class UpdateUserDto {
  @PyOptional()
  @PyStr({ min: 1, max: 200 })
  name?: string;

  @PyOptional()
  @PyEnum(USER_ROLES)
  role?: UserRole;

  @PyOptional({
    type: [String],
    format: 'uuid',
    nullable: true,
    description:
      'The only campaigns the person reaches; null, every campaign; left out, unchanged.',
  })
  @PyList({ min: 1, max: 100 }, uuidError)
  campaign_ids?: string[] | null;
}

export class UserResponseDto {
  @ApiProperty({ type: 'string', format: 'uuid' }) id: string;
  @ApiProperty() email: string;
  @ApiProperty() name: string;
  @ApiProperty({ enum: USER_ROLES }) role: string;
  @ApiProperty({ type: [String], format: 'uuid', nullable: true }) campaign_ids: string[] | null;
  @ApiProperty({
    enum: ['invited', 'active', 'deactivated'],
    description: 'invited: no password set yet; active: signs in; deactivated: never again',
  })
  status: string;
  @DateTime() created_at: string;
  @DateTime({ nullable: true }) deactivated_at: string | null;
}

export class InvitationDto {
  @ApiProperty({
    description:
      'The link that lets the person set a password, once: hand it over yourself (it is shown here only)',
  })
  url: string;
  @ApiProperty({ description: 'The secret in the link, for a client that builds its own' })
  token: string;
  @DateTime() expires_at: string;
}

export class InvitedUserResponseDto extends UserResponseDto {
  @ApiProperty({ type: InvitationDto }) invitation: InvitationDto;
}

export class UserListResponseDto {
  @ApiProperty({ type: [UserResponseDto] }) users: UserResponseDto[];
}

export class AcceptInvitationDto {
  @PyRequired({ description: 'The token of the invitation link' })
  @PyStr({ min: 1, max: 200 })
  token: string;

  @PyRequired({ description: 'At least 12 characters' })
  @PyStr({ max: 1000 })
  password: string;
}
