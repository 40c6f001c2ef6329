import { DateTime } from '../../../../common/http/response-properties.js';
import { ApiProperty } from '@nestjs/swagger';
import { ROLES } from '../../../../common/auth/access.js';
import {
  PyDateOrDateTime,
  PyEnum,
  PyList,
  PyOptional,
  PyRequired,
  PyStr,
  uuidError,
} from '../../../../common/validation/py-validators.js';

export class CreateApiKeyDto {
  @PyRequired({ example: 'EHR integration' })
  @PyStr({ min: 1, max: 200 })
  name: string;

  @PyRequired({ example: 'integration' })
  @PyEnum(ROLES)
  role: (typeof ROLES)[number];

  @PyOptional({
    type: [String],
    format: 'uuid',
    nullable: true,
    description: 'The only campaigns the key reaches; left out or null, every campaign.',
  })
  @PyList({ min: 1, max: 100 }, uuidError)
  campaign_ids?: string[] | null;

  @PyOptional({
    nullable: true,
    description: 'When the key stops working (a date-time in the future); null, never.',
  })
  @PyDateOrDateTime()
  expires_at?: string | number | null;
}

export class ApiKeyResponseDto {
  @ApiProperty({ type: 'string', format: 'uuid' }) id: string;
  @ApiProperty() name: string;
  @ApiProperty({ enum: ROLES }) role: string;
  @ApiProperty({ type: [String], format: 'uuid', nullable: true }) campaign_ids: string[] | null;
  @ApiProperty({ description: 'Enough of the key to recognise it, never enough to use it' })
  key_prefix: string;
  @DateTime() created_at: string;
  @DateTime({ nullable: true }) last_used_at: string | null;
  @DateTime({ nullable: true }) expires_at: string | null;
  @ApiProperty({
    type: 'string',
    format: 'uuid',
    nullable: true,
    description: 'The key that created this one (null: made by a person, the CLI or at start-up)',
  })
  created_by: string | null;
}

export class CreatedApiKeyResponseDto extends ApiKeyResponseDto {
  @ApiProperty({ description: 'The secret: shown in this answer only, never again' }) key: string;
}

export class ApiKeyListResponseDto {
  @ApiProperty({ type: [ApiKeyResponseDto] }) api_keys: ApiKeyResponseDto[];
}
