import { DateTime } from '../../../../common/http/response-properties.js';
import { ApiExtraModels, ApiProperty, getSchemaPath } from '@nestjs/swagger';
import { LimitSkipQueryDto } from '../../../../common/paging/limit-skip-query.dto.js';
import {
  PyBool,
  PyList,
  PyModelList,
  PyOptional,
  PyPhoneNumberOrNational,
  PyRequired,
  PyStr,
  PyValueRule,
  phoneNumberOrNationalItemError,
} from '../../../../common/validation/py-validators.js';

/** Longest batch a request may add or remove, as for blacklists. */
const MAX_NUMBERS = 10000;

export class DoNotCallNumberDto {
  @PyRequired({
    example: '+15550101234',
    description:
      "E.164, or a national number read in the organization's default_country (the policy's): " +
      '`(617) 253-1217` is listed as +16172531217',
  })
  @PyStr()
  @PyPhoneNumberOrNational()
  phone_number: string;

  @PyRequired({ example: 'Letter of 2026-11-02' })
  @PyStr({ min: 1, max: 500 })
  reason: string;
}

export class AddDoNotCallNumbersDto {
  @PyRequired({ type: [DoNotCallNumberDto] })
  @PyModelList(() => DoNotCallNumberDto, { min: 1, max: MAX_NUMBERS })
  phone_numbers: DoNotCallNumberDto[];
}

export class RemoveDoNotCallNumbersDto {
  @PyRequired({ type: [String], example: ['+15550101234'] })
  @PyList({ min: 1, max: MAX_NUMBERS }, phoneNumberOrNationalItemError)
  phone_numbers: string[];

  @PyRequired({
    example: 'Consent given again by phone on 2026-11-20',
    description: 'Why the numbers may be called again; kept with each removal',
  })
  @PyStr({ min: 1, max: 500 })
  reason: string;
}

const SEARCH_RULE = 'phone_number should hold digits of a phone number';

export class ListDoNotCallQueryDto extends LimitSkipQueryDto {
  @PyOptional({
    description:
      'Only numbers that contain these digits (`+`, spaces, dashes, dots and parentheses are ignored): ' +
      '`0105`, `+1 555 0101`',
    example: '5550101',
  })
  @PyStr({ min: 1, max: 20 })
  @PyValueRule('doNotCallSearch', (v) =>
    typeof v !== 'string' || /^[+\d\s\-.()]*\d[+\d\s\-.()]*$/.test(v) ? null : SEARCH_RULE,
  )
  phone_number?: string;

  @PyOptional({
    default: false,
    description:
      'Also the listings taken off the list (each with `removed`): the whole history, oldest first',
  })
  @PyBool()
  include_removed: boolean = false;
}

export class DoNotCallCallSourceDto {
  @ApiProperty({ enum: ['call'] }) type: 'call';
  @ApiProperty({ type: 'string', format: 'uuid' }) campaign_id: string;
  @ApiProperty({ type: 'string', format: 'uuid' }) target_id: string;
  @ApiProperty({ type: 'integer', description: 'The call in which the person asked' })
  call_log_id: number;
}

/** Who changed the list through the API: an API key or a person signed in, with their name then. */
export class DoNotCallActorDto {
  @ApiProperty({ enum: ['api_key', 'user'], description: 'An API key (a system) or a person' })
  type: 'api_key' | 'user';
  @ApiProperty({ type: 'string', format: 'uuid', description: "The key's or the person's id" })
  id: string;
  @ApiProperty({
    type: 'string',
    example: 'EHR integration',
    description: "The key's or the person's name when they acted",
  })
  name: string;
}

export class DoNotCallApiSourceDto {
  @ApiProperty({ enum: ['api'] }) type: 'api';
  @ApiProperty({
    type: DoNotCallActorDto,
    description: 'The API key or person that added the number',
  })
  added_by: DoNotCallActorDto;
}

export class DoNotCallSmsSourceDto {
  @ApiProperty({ enum: ['sms'] }) type: 'sms';
  @ApiProperty({
    type: 'string',
    format: 'uuid',
    description: 'The opt-out reply (`GET /api/v1/messages/{id}`)',
  })
  message_id: string;
  @ApiProperty({ type: 'string', format: 'uuid', nullable: true }) campaign_id: string | null;
  @ApiProperty({
    type: 'string',
    format: 'uuid',
    nullable: true,
    description: 'The target whose text it answered, when known',
  })
  target_id: string | null;
}

export class DoNotCallRemovalDto {
  @DateTime() removed_at: string;
  @ApiProperty({ type: 'string', example: 'Consent given again by phone on 2026-11-20' })
  reason: string;
  @ApiProperty({ type: DoNotCallActorDto, description: 'The API key or person that removed it' })
  removed_by: DoNotCallActorDto;
}

@ApiExtraModels(
  DoNotCallCallSourceDto,
  DoNotCallApiSourceDto,
  DoNotCallSmsSourceDto,
  DoNotCallRemovalDto,
)
export class DoNotCallEntryResponseDto {
  @ApiProperty({ type: 'string', example: '+15550101234' }) phone_number: string;
  @ApiProperty({ type: 'string', example: 'Letter of 2026-11-02' }) reason: string;
  @ApiProperty({
    description:
      'Who listed the number: a call that ended DNC_REQUESTED, an opt-out reply to a text (STOP), or an API key or person through the API (a letter, an email)',
    oneOf: [
      { $ref: getSchemaPath(DoNotCallCallSourceDto) },
      { $ref: getSchemaPath(DoNotCallApiSourceDto) },
      { $ref: getSchemaPath(DoNotCallSmsSourceDto) },
    ],
    discriminator: {
      propertyName: 'type',
      mapping: {
        call: getSchemaPath(DoNotCallCallSourceDto),
        api: getSchemaPath(DoNotCallApiSourceDto),
        sms: getSchemaPath(DoNotCallSmsSourceDto),
      },
    },
  })
  source: DoNotCallCallSourceDto | DoNotCallApiSourceDto | DoNotCallSmsSourceDto;
  @DateTime() created_at: string;
  @ApiProperty({
    anyOf: [
      { $ref: getSchemaPath(DoNotCallRemovalDto) },
      { type: 'string', nullable: true, enum: [null] },
    ],
    description: 'null while the number is listed; when, why and by which key it was taken off',
  })
  removed: DoNotCallRemovalDto | null;
}

export class DoNotCallPageResponseDto {
  @ApiProperty({ type: [DoNotCallEntryResponseDto] }) phone_numbers: DoNotCallEntryResponseDto[];
  @ApiProperty({ type: 'integer', description: 'Entries that match, on every page' }) total: number;
}

export class DoNotCallAddedResponseDto {
  @ApiProperty({ type: [DoNotCallEntryResponseDto], description: 'Numbers listed by this request' })
  added: DoNotCallEntryResponseDto[];
  @ApiProperty({
    type: [DoNotCallEntryResponseDto],
    description: 'Numbers that were listed already: their first entry stands',
  })
  already_listed: DoNotCallEntryResponseDto[];
}

export class DoNotCallRemovedResponseDto {
  @ApiProperty({ type: [DoNotCallEntryResponseDto], description: 'Entries taken off the list' })
  removed: DoNotCallEntryResponseDto[];
  @ApiProperty({
    type: [String],
    example: ['+15550109999'],
    description: 'Numbers (normalised) that were not listed',
  })
  not_listed: string[];
}
