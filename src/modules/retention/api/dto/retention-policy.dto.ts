import { DateTime, NullableString } from '../../../../common/http/response-properties.js';
import { ApiProperty } from '@nestjs/swagger';
import {
  PyBool,
  PyInt,
  PyModel,
  PyOptional,
  PyRequired,
} from '../../../../common/validation/py-validators.js';
import { PART_REMOVES } from '../../domain/retention-policy.js';

/** Up to 100 years: a bigger number is a typo, not a policy. */
const MAX_DAYS = 36_500;

const windowDoc = (part: keyof typeof PART_REMOVES) => ({
  nullable: true,
  example: null,
  description: `Days after the target's last call ended (its creation when never called) until ${PART_REMOVES[part]} are removed; null keeps them.`,
});

export class RetentionWindowsDto {
  @PyRequired(windowDoc('transcripts'))
  @PyInt({ ge: 0, le: MAX_DAYS })
  transcripts: number | null;

  @PyRequired(windowDoc('recordings'))
  @PyInt({ ge: 0, le: MAX_DAYS })
  recordings: number | null;

  @PyRequired(windowDoc('input_data'))
  @PyInt({ ge: 0, le: MAX_DAYS })
  input_data: number | null;

  @PyRequired(windowDoc('messages'))
  @PyInt({ ge: 0, le: MAX_DAYS })
  messages: number | null;

  @PyRequired(windowDoc('finished_targets'))
  @PyInt({ ge: 0, le: MAX_DAYS })
  finished_targets: number | null;
}

export class RetentionPolicyDto {
  @PyRequired({ type: RetentionWindowsDto })
  @PyModel(() => RetentionWindowsDto)
  windows: RetentionWindowsDto;

  @PyRequired({
    description:
      'Redact transcripts, call summaries and inbound texts before they are stored (the original is not kept)',
  })
  @PyBool()
  redact_transcripts: boolean;
}

export class RetentionPolicyResponseDto extends RetentionPolicyDto {
  @ApiProperty({
    type: 'object',
    additionalProperties: { type: 'string' },
    description: 'What each window removes',
    example: PART_REMOVES,
  })
  removes: Record<string, string>;
}

export class CampaignOwnPolicyDto extends RetentionPolicyDto {
  @ApiProperty({ format: 'uuid' }) campaign_id: string;
}

export class OrganizationRetentionResponseDto extends RetentionPolicyResponseDto {
  @ApiProperty({
    type: [CampaignOwnPolicyDto],
    description: 'Campaigns with a policy of their own',
  })
  campaigns: CampaignOwnPolicyDto[];
}

/** A policy a run applied: the organization's (campaign_id null) or a campaign's own. */
export class AppliedPolicyDto extends RetentionPolicyDto {
  @ApiProperty({ type: 'string', format: 'uuid', nullable: true }) campaign_id: string | null;
}

export class CampaignRetentionResponseDto extends RetentionPolicyResponseDto {
  @ApiProperty({ format: 'uuid' }) campaign_id: string;
  @ApiProperty({ description: "false: the campaign follows its organization's policy" })
  own: boolean;
}

export class RetentionRunsQueryDto {
  @PyOptional({ default: 50 })
  @PyInt({ ge: 1, le: 500 })
  limit: number = 50;

  @PyOptional({ default: 0 })
  @PyInt({ ge: 0 })
  skip: number = 0;
}

export class RetentionRunResponseDto {
  @ApiProperty({ format: 'uuid' }) id: string;
  @ApiProperty({ enum: ['purge', 'erasure'] }) kind: string;
  @ApiProperty({ enum: ['schedule', 'api'] }) trigger: string;
  @ApiProperty({ enum: ['running', 'finished'] }) status: string;
  @ApiProperty({
    type: [AppliedPolicyDto],
    description:
      "The policies the run applied: the organization's (campaign_id null) and campaigns' own",
  })
  policies: AppliedPolicyDto[];
  @ApiProperty({
    type: 'object',
    nullable: true,
    additionalProperties: { type: 'string' },
    description: "An erasure's person: phone_number or external_id",
  })
  subject: Record<string, string> | null;
  @NullableString() reason: string | null;
  @ApiProperty({
    type: 'object',
    additionalProperties: { type: 'integer' },
    description:
      'Targets purged per part (an erasure: `targets`), and rows changed per table (`rows.<table>`)',
  })
  counts: Record<string, number>;
  @ApiProperty({ format: 'date-time' }) started_at: string;
  @DateTime({ nullable: true }) finished_at: string | null;
}

export class RetentionRunPageDto {
  @ApiProperty({ type: [RetentionRunResponseDto] }) runs: RetentionRunResponseDto[];
  @ApiProperty({ type: 'integer' }) total: number;
}
