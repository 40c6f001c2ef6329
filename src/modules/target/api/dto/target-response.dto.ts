import { NullableString } from '../../../../common/http/response-properties.js';
import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { TARGET_STATUS_FILTERS } from '../../domain/target.js';
import { CALL_CATEGORY_ENUMS, SUBCATEGORY_ENUMS } from './outcome-enums.js';
import { PageEnvelopeResponseDto } from '../../../../common/paging/page-envelope-response.dto.js';
import { FollowedByPresentedFields } from './target-field-decorators.js';

const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });
const NULL_ONLY = { type: 'string', nullable: true, enum: [null] };

const OBJECT = { type: 'object', additionalProperties: true } as const;
const DATE_TIME = { type: 'string', format: 'date-time' } as const;

/** The patient a target is, as added (`patient` of the add, or the import's patient columns). */
export class TargetPatientResponseDto {
  @NullableString({ example: 'Maria' }) first_name: string | null;
  @NullableString({ example: 'Lopez' }) last_name: string | null;
  @NullableString({ example: '1962-03-14' }) date_of_birth: string | null;
  @NullableString({ example: 'MRN-1007' }) external_id: string | null;
}

/** The Target response object (spec: Resources), for the OpenAPI document; built by `presentTarget`. */
export class TargetResponseDto {
  @ApiProperty() id: string;
  @ApiProperty({
    example: 'http://localhost:3000/api/v1/targets/7d0c3c52-0c52-4d0e-9f6a-2f7c0d6b1a11',
  })
  target_url: string;
  @ApiProperty() organization_id: string;
  @ApiProperty() campaign_id: string;
  @ApiProperty(DATE_TIME) created_at: string;
  @ApiProperty({
    type: 'integer',
    nullable: true,
    description: 'Sum of call durations, rounded up',
  })
  execution_minutes: number | null;
  @ApiProperty({ ...OBJECT, nullable: true, description: 'null once purged (docs/compliance.md)' })
  input_data: Record<string, unknown> | null;
  @ApiProperty({ ...OBJECT, nullable: true, description: 'null once purged (docs/compliance.md)' })
  output_data: Record<string, unknown> | null;
  @ApiProperty({ enum: TARGET_STATUS_FILTERS }) status: string;
  @NullableString({ enum: ['retrieved', 'not_retrieved', 'successful', 'unsuccessful'] })
  resolution: string | null;
  @ApiProperty({
    anyOf: [...Object.keys(CALL_CATEGORY_ENUMS).map(ref), NULL_ONLY],
    description: "One of the campaign type's category enum, or null before an outcome",
  })
  category: string | null;
  @ApiProperty({
    anyOf: [
      ...Object.keys(SUBCATEGORY_ENUMS).map(ref),
      ref('PayorCallCategory'),
      { type: 'string', nullable: true },
    ],
    description: 'One of the subcategory enums, a PayorCallCategory value, any string, or null',
  })
  subcategory: string | null;
  @ApiProperty({ type: 'integer', isArray: true, nullable: true }) call_log_ids: number[] | null;
  @ApiProperty({ ...DATE_TIME, nullable: true }) last_call_date: string | null;
  @NullableString() phone_number: string | null;
  @ApiProperty({ type: 'string', isArray: true, nullable: true }) fax_links: string[] | null;
  @ApiProperty({ ...OBJECT, nullable: true }) payor_api_data: Record<string, unknown> | null;
  @NullableString() external_id: string | null;
  @ApiPropertyOptional({ ...DATE_TIME, nullable: true }) updated_at: string | null;
  @ApiPropertyOptional({ type: 'integer', nullable: true, description: 'Attempts after the first' })
  retries: number | null;
  @ApiPropertyOptional({ ...DATE_TIME, nullable: true }) scheduled_time: string | null;
  @ApiPropertyOptional({ ...OBJECT, nullable: true }) categorization: Record<
    string,
    unknown
  > | null;
  @ApiPropertyOptional({ type: 'string', nullable: true }) outcome: string | null;
  @ApiPropertyOptional({ ...OBJECT, nullable: true }) statistics: Record<string, unknown> | null;
  /** Followed by the presented fields of domain/target-fields.ts. */
  @FollowedByPresentedFields()
  @ApiProperty({
    type: () => TargetPatientResponseDto,
    nullable: true,
    description:
      'Added to the reference: the patient as given when added (name, date of birth, external id); ' +
      'null when added without one',
  })
  patient: TargetPatientResponseDto | null;
  @ApiPropertyOptional({
    ...DATE_TIME,
    description: 'Only on a target the retention purge or an erasure reached: when it last did',
  })
  purged_at?: string;
  @ApiPropertyOptional({
    type: 'string',
    isArray: true,
    description:
      'The parts removed: transcripts, recordings, input_data, messages, finished_targets',
  })
  purged_parts?: string[];
}

/** The input-data update also returns `pre_call_ehr_ids` (`{}` when the target has no EHR events). */
export class TargetWithEhrIdsResponseDto extends TargetResponseDto {
  @ApiProperty({
    type: 'object',
    additionalProperties: { type: 'array', items: { type: 'string' } },
    description: 'EHR event type -> ids of the stored EHR events of this target',
  })
  pre_call_ehr_ids: Record<string, string[]>;
}

export class PaginatedTargetsResponseDto extends PageEnvelopeResponseDto {
  @ApiProperty({ type: [TargetResponseDto] }) targets: TargetResponseDto[];
  @NullableString({
    description:
      'Pass as cursor to get the targets after this page (keyset paging); null when none follow. ' +
      'When paging by cursor, next_page is null.',
  })
  next_cursor: string | null;
}

/** The single-target read: the Target, and why it is not being called now. */
export class TargetDetailResponseDto extends TargetResponseDto {
  @NullableString({
    example: 'outside calling window: opens Mon 09:00 US/Eastern',
    description:
      'Why a target that is not final is not being called right now, in words (e.g. "campaign paused", ' +
      '"campaign at max_concurrent_calls 10/10", "retry 2 of 3 after NO_RESPONSE at 2026-11-23 14:05 ' +
      'UTC", "waiting for step labs", "not launched: trigger calls or add with launch=true"); null when ' +
      'final or in a call. Computed when read. See docs/targets.md, "Why not called yet".',
  })
  waiting_reason: string | null;

  @ApiProperty({
    type: [String],
    example: ['America/Chicago'],
    description:
      "IANA zones the recipient may be in: the target's time_zone, else the dialled number's (an area " +
      "code or country spanning several gives all), else the organization's default_time_zone. Calls " +
      'wait until the calling rules allow them in every one (docs/compliance.md).',
  })
  time_zones: string[];

  @ApiProperty({ enum: ['target', 'phone_number', 'organization_default'] })
  time_zone_source: string;

  @NullableString({
    example: 'Oklahoma',
    description: "The area of a NANP number as libphonenumber's geocoder names it (state rules)",
  })
  region: string | null;
}
