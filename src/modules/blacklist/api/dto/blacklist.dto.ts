import { DateTime, NullableString } from '../../../../common/http/response-properties.js';
import { ApiProperty } from '@nestjs/swagger';
import {
  checkString,
  PyInt,
  PyList,
  PyModelList,
  PyOptional,
  PyRequired,
  PyStr,
} from '../../../../common/validation/py-validators.js';
import { LimitSkipQueryDto } from '../../../../common/paging/limit-skip-query.dto.js';
import { PageEnvelopeResponseDto } from '../../../../common/paging/page-envelope-response.dto.js';

export class CreateBlacklistDto {
  @PyRequired({ example: 'Do not call' })
  @PyStr({ min: 1, max: 200 })
  name: string;

  @PyOptional({ nullable: true })
  @PyStr({ max: 2000 })
  description?: string | null;
}

export class BlacklistEntryDto {
  @PyRequired({ example: '+15550101234' })
  @PyStr()
  phone_number: string;

  @PyOptional({ nullable: true, default: '' })
  @PyStr({ max: 500 })
  reason?: string;
  @PyOptional({
    nullable: true,
    default: '',
    example: 'organization',
    description:
      '`organization` (any case): the entry holds for every campaign of the organization, whether ' +
      'or not it names this blacklist. Anything else: only for the campaigns naming this blacklist ' +
      'in `blacklist_ids`.',
  })
  @PyStr({ max: 100 })
  level?: string;
  @PyOptional({ nullable: true, default: '' })
  @PyStr({ max: 200 })
  name?: string;
  @PyOptional({ nullable: true, default: '' })
  @PyStr({ max: 2000 })
  comment?: string;
}

export class AddBlacklistNumbersDto {
  @PyRequired({ type: [BlacklistEntryDto] })
  @PyModelList(() => BlacklistEntryDto, { min: 1, max: 10000 })
  phone_numbers: BlacklistEntryDto[];
}

export class RemoveBlacklistNumbersDto {
  @PyRequired({ type: [String], example: ['+15550101234'] })
  @PyList({ min: 1, max: 10000 }, checkString)
  phone_numbers: string[];
}

export class ListBlacklistNumbersQueryDto extends LimitSkipQueryDto {}

export class ListBlacklistsQueryDto {
  @PyOptional({ default: 0 }) @PyInt({ ge: 0 }) page: number = 0;
  @PyOptional({ default: 50 })
  @PyInt({ ge: 1, le: 100 })
  limit: number = 50;
}

export class BlacklistResponseDto {
  @ApiProperty({ type: 'string', format: 'uuid' }) id: string;
  @ApiProperty({ type: 'string', format: 'uuid' }) organization_id: string;
  @ApiProperty({ type: 'string', example: 'Do not call' }) name: string;
  @NullableString() description: string | null;
  @DateTime() created_at: string;
  @DateTime() updated_at: string;
}

export class BlacklistPageResponseDto extends PageEnvelopeResponseDto {
  @ApiProperty({ type: [BlacklistResponseDto] }) blacklists: BlacklistResponseDto[];
}

export class BlacklistEntryResponseDto {
  @ApiProperty({ type: 'string', example: '+15550101234' }) phone_number: string;
  @ApiProperty({ type: 'string', example: 'DNC request' }) reason: string;
  @ApiProperty({ type: 'string', example: 'organization' }) level: string;
  @ApiProperty({ type: 'string' }) name: string;
  @ApiProperty({ type: 'string' }) comment: string;
}

export class BlacklistNumbersPageResponseDto {
  @ApiProperty({ type: [BlacklistEntryResponseDto] }) phone_numbers: BlacklistEntryResponseDto[];
  @ApiProperty({ type: 'integer', description: 'Entries in the blacklist' }) total: number;
}

export class BlacklistNumbersAddedResponseDto {
  @ApiProperty({ type: 'integer', description: 'Numbers new to the blacklist' }) added: number;
  @ApiProperty({ type: 'integer', description: 'Numbers already there, their details replaced' })
  updated: number;
}

export class BlacklistNumbersRemovedResponseDto {
  @ApiProperty({ type: 'integer', description: 'Numbers taken off the blacklist' }) removed: number;
}
