import { ApiExtraModels, ApiProperty, ApiPropertyOptional, getSchemaPath } from '@nestjs/swagger';
import { ValidateBy } from 'class-validator';
import { normalizePhoneNumber, PHONE_NUMBER_RULE } from '../../../../common/phone/phone-number';
import { weekScheduleError } from '../../../../common/schedule/week-schedule';
import {
  isPlainObject,
  PyBool,
  PyDict,
  PyModel,
  PyModelList,
  PyOptional,
  PyRequired,
  PyStr,
  PyUuid,
  RANK_TYPE,
  RANK_VALUE,
} from '../../../../common/validation/py-validators';
import { pydantic, PydanticError } from '../../../../common/validation/pydantic-errors';
import { PyStorable } from '../../../../common/validation/storable';

export const MAX_TARGETS_PER_REQUEST = 10000;
/** External ids are in a unique btree index, whose entries must stay under ~2.7 kB (4 bytes a char). */
export const MAX_EXTERNAL_ID_LENGTH = 500;

const WEEK_SCHEDULE_DOC = {
  type: 'object',
  additionalProperties: true,
  nullable: true,
  description:
    'WeekSchedule: monday..sunday lists of {start, end} local HH:MM times, tz default US/Eastern',
  example: { monday: [{ start: '09:00', end: '17:00' }], tz: 'US/Eastern' },
} as const;

/** `{value, operating_hours}`: a number with the hours it may be called in. */
export class PhoneNumberInputDto {
  @ApiProperty({ example: '+1 (555) 010-0000', description: 'The phone number of the target' })
  value: string;

  @ApiPropertyOptional({ ...WEEK_SCHEDULE_DOC, description: 'The operating hours of the number' })
  operating_hours?: Record<string, unknown> | null;
}

type PhoneItem = PydanticError & { index: string };

/**
 * Why a phone field is invalid. A string is checked in place; for the object form the errors sit
 * under its keys (`phone_number.value`, `phone_number.operating_hours`).
 */
function phoneErrors(v: unknown): PydanticError | PhoneItem[] | null {
  if (typeof v === 'string')
    return normalizePhoneNumber(v) ? null : pydantic.valueError(PHONE_NUMBER_RULE);
  if (!isPlainObject(v)) return pydantic.stringType();
  const items: PhoneItem[] = [];
  if (v.value === undefined) items.push({ index: 'value', ...pydantic.missing() });
  else if (typeof v.value !== 'string') items.push({ index: 'value', ...pydantic.stringType() });
  else if (!normalizePhoneNumber(v.value))
    items.push({ index: 'value', ...pydantic.valueError(PHONE_NUMBER_RULE) });
  const hours = v.operating_hours;
  if (hours !== undefined && hours !== null) {
    const error = weekScheduleError(hours);
    if (error !== null) items.push({ index: 'operating_hours', ...pydantic.valueError(error) });
  }
  return items.length > 0 ? items : null;
}

/** A phone number: a string or `{value, operating_hours}`, `+` and 7..15 digits once normalised. */
function PyPhone(): PropertyDecorator {
  return ValidateBy({
    name: 'pyPhone',
    validator: {
      validate: (v) => phoneErrors(v) === null,
      // The validation pipe reports `items` at `loc + [index]`; here the index is the object's key.
      defaultMessage: (args) => {
        const errors = phoneErrors(args?.value);
        return JSON.stringify(
          Array.isArray(errors)
            ? { rank: RANK_VALUE, items: errors }
            : { rank: errors?.type === 'value_error' ? RANK_VALUE : RANK_TYPE, ...errors },
        );
      },
    },
  });
}

const PHONE_DOC = {
  oneOf: [{ type: 'string' }, { $ref: getSchemaPath(PhoneNumberInputDto) }],
  description: 'E.164 after removing spaces, dashes, dots and parentheses: + and 7 to 15 digits',
  example: '+15550100000',
};

export class PatientInputDto {
  @ApiPropertyOptional({ nullable: true, example: 'John' })
  @PyOptional({ nullable: true })
  @PyStr()
  @PyStorable()
  first_name?: string | null;

  @ApiPropertyOptional({ nullable: true, example: 'Doe' })
  @PyOptional({ nullable: true })
  @PyStr()
  @PyStorable()
  last_name?: string | null;

  @ApiPropertyOptional({ nullable: true, example: '1990-01-15', description: 'YYYY-MM-DD' })
  @PyOptional({ nullable: true })
  @PyStr()
  @PyStorable()
  date_of_birth?: string | null;

  @ApiPropertyOptional({ nullable: true })
  @PyOptional({ nullable: true })
  @PyStr()
  @PyStorable()
  phone_number?: string | null;

  @ApiPropertyOptional({
    nullable: true,
    example: 'PAT-001',
    maxLength: MAX_EXTERNAL_ID_LENGTH,
    description: "Used as the target's external_id when it has none",
  })
  @PyOptional({ nullable: true })
  @PyStr({ max: MAX_EXTERNAL_ID_LENGTH })
  @PyStorable()
  external_id?: string | null;

  @ApiPropertyOptional({ type: 'object', additionalProperties: true, nullable: true })
  @PyOptional({ nullable: true })
  @PyDict()
  @PyStorable()
  extra_data?: Record<string, unknown> | null;
}

@ApiExtraModels(PhoneNumberInputDto)
export class TargetInputDto {
  @ApiPropertyOptional({
    format: 'uuid',
    description: 'The ID of the target (generated when absent); an existing id is a 409',
  })
  @PyOptional()
  @PyUuid()
  id?: string;

  @ApiPropertyOptional({
    nullable: true,
    maxLength: MAX_EXTERNAL_ID_LENGTH,
    description: 'Unique within the campaign; defaults to patient.external_id',
  })
  @PyOptional({ nullable: true })
  @PyStr({ max: MAX_EXTERNAL_ID_LENGTH })
  @PyStorable()
  external_id?: string | null;

  @ApiProperty(PHONE_DOC)
  @PyRequired()
  @PyPhone()
  phone_number: string | PhoneNumberInputDto;

  @ApiPropertyOptional({ ...PHONE_DOC, nullable: true })
  @PyOptional({ nullable: true })
  @PyPhone()
  fallback_phone_number?: string | PhoneNumberInputDto | null;

  @ApiPropertyOptional({ type: 'object', additionalProperties: true, default: {} })
  @PyOptional()
  @PyDict()
  @PyStorable()
  input_data?: Record<string, unknown>;

  @ApiPropertyOptional({ type: 'object', additionalProperties: true, nullable: true })
  @PyOptional({ nullable: true })
  @PyDict()
  @PyStorable()
  pre_call_data?: Record<string, unknown> | null;

  @ApiPropertyOptional({ type: () => PatientInputDto, nullable: true })
  @PyOptional({ nullable: true })
  @PyModel(() => PatientInputDto)
  patient?: PatientInputDto | null;
}

export class AddTargetsDto {
  @ApiProperty({ type: [TargetInputDto], minItems: 1, maxItems: MAX_TARGETS_PER_REQUEST })
  @PyRequired()
  @PyModelList(() => TargetInputDto, { min: 1, max: MAX_TARGETS_PER_REQUEST })
  targets: TargetInputDto[];

  @ApiPropertyOptional({
    default: false,
    description:
      'Schedule the new targets at once. A campaign with an entry_step keeps them Waiting regardless: ' +
      'the step data schedules them (merge_and_schedule).',
  })
  @PyOptional()
  @PyBool()
  launch: boolean = false;

  @ApiPropertyOptional({
    default: true,
    description:
      'true: targets whose external id is already in the campaign (or earlier in the request) are ignored; ' +
      'false: such a request is refused with 409 and nothing is added',
  })
  @PyOptional()
  @PyBool()
  allow_duplicates: boolean = true;
}

export class AddTargetsResponseDto {
  @ApiProperty({ example: 2 }) created: number;
  @ApiProperty({ example: [{ index: 1, external_id: 'PAT-001' }] })
  ignored: { index: number; external_id: string }[];
  @ApiProperty({ type: [String], description: 'The created ids, in request order' })
  target_ids: string[];
}
