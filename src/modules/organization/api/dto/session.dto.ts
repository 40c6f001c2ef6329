import { DateTime, NullableString } from '../../../../common/http/response-properties.js';
import { ApiProperty } from '@nestjs/swagger';
import { ROLES } from '../../../../common/auth/access.js';
import {
  PyBool,
  PyOptional,
  PyRequired,
  PyStr,
} from '../../../../common/validation/py-validators.js';

export class SignInDto {
  @PyRequired({ example: 'dana@clinic.example' })
  @PyStr({ min: 1, max: 320 })
  email: string;

  @PyRequired()
  @PyStr({ max: 1000 })
  password: string;

  @PyOptional({
    description: "The authenticator app's 6-digit code, for a person with a second factor",
  })
  @PyStr({ max: 20 })
  totp_code?: string;
}

export class TotpDto {
  @ApiProperty({ description: 'When the second factor is in use, sign-ins need a code' })
  enabled: boolean;
  @ApiProperty({
    description: 'The organization requires it: until set up, only setting it up works',
  })
  required: boolean;
}

export class SessionInfoDto {
  @ApiProperty({
    description:
      'Send it in the X-CSRF-Token header of every signed-in request that changes something',
  })
  csrf_token: string;
  @DateTime({ description: 'When the session ends unless a request comes first (idle timeout)' })
  idle_expires_at: string;
  @DateTime({ description: 'When the session ends however busy (absolute timeout)' })
  expires_at: string;
}

export class MeResponseDto {
  @ApiProperty({ enum: ['user', 'api_key'] }) kind: string;
  @ApiProperty({ type: 'string', format: 'uuid' }) id: string;
  @ApiProperty() name: string;
  @NullableString({ description: "A person's email; null for a key" }) email: string | null;
  @ApiProperty({ enum: ROLES }) role: string;
  @ApiProperty({
    type: [String],
    format: 'uuid',
    nullable: true,
    description: 'The only campaigns reached; null, every campaign',
  })
  campaign_ids: string[] | null;
  @ApiProperty({ type: 'string', format: 'uuid' }) organization_id: string;
  @ApiProperty({ type: [String], description: 'The permissions of the role (docs/access.md)' })
  permissions: string[];
  @ApiProperty({ type: SessionInfoDto, nullable: true, description: 'Null for a key' })
  session: SessionInfoDto | null;
  @ApiProperty({ type: TotpDto, nullable: true, description: 'The second factor; null for a key' })
  totp: TotpDto | null;
}

export class TotpCodeDto {
  @PyRequired({ description: 'The 6 digits the authenticator app shows now' })
  @PyStr({ min: 1, max: 20 })
  code: string;
}

export class TotpSetupResponseDto {
  @ApiProperty({ description: 'The secret (base32), for an app that cannot read the URI' })
  secret: string;
  @ApiProperty({ description: 'otpauth:// URI: show it as a QR code for the app to scan' })
  otpauth_uri: string;
}

export class SignInPolicyDto {
  @PyRequired({
    description: 'Every person of the organization must sign in with a second factor',
  })
  @PyBool()
  require_totp: boolean;
}
