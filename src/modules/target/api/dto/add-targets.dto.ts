import { WeekSchedule as WeekScheduleSchema } from '../../../../common/http/week-schedule.dto.js';
import { ApiExtraModels, ApiProperty, ApiPropertyOptional, getSchemaPath } from '@nestjs/swagger';
import {
  canonicalUuidInput,
  isPlainObject,
  PyBool,
  PyDict,
  PyModel,
  PyModelList,
  PyOptional,
  PyRequired,
  PyStr,
  pyLength,
  PyUuid,
  uuidError,
  PyStorable,
} from '../../../../common/validation/py-validators.js';
import { phoneNumberErrors, PyLocated } from '../../../../common/validation/py-located.js';
import { FIELDS } from '../../domain/target-fields.js';
import { FollowedByAddedFields } from './target-field-decorators.js';

export const MAX_TARGETS_PER_REQUEST = 10000;
/**
 * The reference sets no length on external ids; ours are keys of a unique btree index, whose entries
 * hold at most 2,676 bytes of text beside the campaign id: 600 characters fit whatever they are (a
 * character takes up to 4 bytes in UTF-8), so no stored id can fail the insert.
 */
export const MAX_EXTERNAL_ID_LENGTH = 600;

const WEEK_SCHEDULE_DOC = {
  type: () => WeekScheduleSchema,
  nullable: true,
  description: 'The hours the number may be called in (WeekSchedule; tz defaults to US/Eastern)',
  example: { monday: [{ start: '09:00', end: '17:00' }], tz: 'US/Eastern' },
};

/** `{value, operating_hours}`: a number with the hours it may be called in. */
export class TargetInputPhoneNumberDto {
  @ApiProperty({ example: '+1 (555) 010-0000', description: 'The phone number of the target' })
  value: string;

  @ApiPropertyOptional(WEEK_SCHEDULE_DOC)
  operating_hours?: Record<string, unknown> | null;
}

/** A phone number: a string or `{value, operating_hours}`, `+` and 7..15 digits once normalised. */
const PyPhone = () => PyLocated('pyPhone', phoneNumberErrors);

const PHONE_DOC = {
  oneOf: [{ type: 'string' }, { $ref: getSchemaPath(TargetInputPhoneNumberDto) }],
  description: 'E.164 after removing spaces, dashes, dots and parentheses: + and 7 to 15 digits',
  example: '+15550100000',
};

export class PatientInputDto {
  @PyOptional({ nullable: true, example: 'John' })
  @PyStr()
  @PyStorable()
  first_name?: string | null;

  @PyOptional({ nullable: true, example: 'Doe' })
  @PyStr()
  @PyStorable()
  last_name?: string | null;

  @PyOptional({ nullable: true, example: '1990-01-15', description: 'YYYY-MM-DD' })
  @PyStr()
  @PyStorable()
  date_of_birth?: string | null;

  @PyOptional({ nullable: true })
  @PyStr()
  @PyStorable()
  phone_number?: string | null;

  @PyOptional({
    nullable: true,
    example: 'PAT-001',
    description: "Used as the target's external_id when it has none",
  })
  @PyStr({ max: MAX_EXTERNAL_ID_LENGTH })
  @PyStorable()
  external_id?: string | null;

  @PyOptional({ nullable: true })
  @PyDict()
  @PyStorable()
  extra_data?: Record<string, unknown> | null;
}

@ApiExtraModels(TargetInputPhoneNumberDto)
export class TargetInputDto {
  @PyOptional({
    description: 'The ID of the target (generated when absent); an existing id is a 409',
  })
  @PyUuid()
  id?: string;

  @PyOptional({
    nullable: true,
    description: 'Unique within the campaign; defaults to patient.external_id',
  })
  @PyStr({ max: MAX_EXTERNAL_ID_LENGTH })
  @PyStorable()
  external_id?: string | null;

  @PyRequired(PHONE_DOC)
  @PyPhone()
  phone_number: string | TargetInputPhoneNumberDto;

  /** Followed by the fields of domain/target-fields.ts, by wire name (the mapper reads them by name). */
  @FollowedByAddedFields()
  @PyOptional({ ...PHONE_DOC, nullable: true })
  @PyPhone()
  fallback_phone_number?: string | TargetInputPhoneNumberDto | null;

  @PyOptional({ type: () => PatientInputDto, nullable: true })
  @PyModel(() => PatientInputDto)
  patient?: PatientInputDto | null;
}

/**
 * A target already known valid field by field (see `checkedTarget`): it carries no validation metadata,
 * so class-validator passes over it instead of checking 10,000 targets one decorator at a time.
 */
class CheckedTargetInput {
  id?: string;
  external_id?: string | null;
  phone_number: string | TargetInputPhoneNumberDto;
  fallback_phone_number?: string | TargetInputPhoneNumberDto | null;
  patient?: PatientInputDto | null;
}

const optionalString = (v: unknown, max = Infinity) =>
  v == null || (typeof v === 'string' && (v.length <= max || pyLength(v) <= max));

const PATIENT_STRINGS = ['first_name', 'last_name', 'date_of_birth', 'phone_number'] as const;

/** Exactly what PatientInputDto's field decorators accept (strings PostgreSQL cannot store aside). */
function patientValid(p: unknown): boolean {
  return (
    isPlainObject(p) &&
    PATIENT_STRINGS.every((field) => optionalString(p[field])) &&
    optionalString(p.external_id, MAX_EXTERNAL_ID_LENGTH) &&
    (p.extra_data == null || isPlainObject(p.extra_data))
  );
}

/**
 * A target TargetInputDto's decorators accept, as they would hand it on (the id canonical, the rest as
 * sent, uncopied), or null. Strings PostgreSQL cannot store need no check here: the validation pipe
 * refuses a body with one anywhere before any model runs.
 */
function checkedTarget(t: Record<string, unknown>): CheckedTargetInput | null {
  const valid =
    (t.id === undefined || uuidError(t.id) === null) &&
    optionalString(t.external_id, MAX_EXTERNAL_ID_LENGTH) &&
    t.phone_number !== undefined &&
    phoneNumberErrors(t.phone_number).length === 0 &&
    (t.fallback_phone_number == null || phoneNumberErrors(t.fallback_phone_number).length === 0) &&
    (t.patient == null || patientValid(t.patient));
  if (!valid) return null;
  const target = new CheckedTargetInput();
  if (t.id !== undefined) target.id = canonicalUuidInput(t.id) as string;
  target.external_id = t.external_id as string | null | undefined;
  target.phone_number = t.phone_number as string | TargetInputPhoneNumberDto;
  target.fallback_phone_number =
    t.fallback_phone_number as CheckedTargetInput['fallback_phone_number'];
  target.patient = t.patient as PatientInputDto | null | undefined;
  const to = target as unknown as Record<string, unknown>;
  for (const f of FIELDS) {
    const v = t[f.name];
    // What the field's decorators accept: absent, null when nullable, else the type and the rule.
    if (v !== undefined && !(v === null && f.nullable)) {
      if (f.type === 'object' ? !isPlainObject(v) : typeof v !== 'string') return null;
      if (f.rule !== undefined && f.rule(v) !== null) return null;
    }
    to[f.name] = v;
  }
  return target;
}

export class AddTargetsDto {
  @PyRequired({ type: [TargetInputDto] })
  @PyModelList(() => TargetInputDto, { min: 1, max: MAX_TARGETS_PER_REQUEST }, checkedTarget)
  targets: TargetInputDto[];

  @PyOptional({
    default: false,
    description:
      'Schedule the new targets at once. A campaign with an entry_step keeps them Waiting regardless: ' +
      'the step data schedules them (merge_and_schedule).',
  })
  @PyBool()
  launch: boolean = false;

  @PyOptional({
    default: true,
    description:
      'true: targets whose external id is already in the campaign (or earlier in the request) are ignored; ' +
      'false: such a request is refused with 409 and nothing is added',
  })
  @PyBool()
  allow_duplicates: boolean = true;
}

export class IgnoredTargetDto {
  @ApiProperty({ type: 'integer', description: 'Position of the target in the request' })
  index: number;
  @ApiProperty({ type: 'string', example: 'PAT-001' }) external_id: string;
}

export class AddTargetsResponseDto {
  @ApiProperty({ type: 'integer', example: 2 }) created: number;
  @ApiProperty({
    type: [IgnoredTargetDto],
    description: 'Targets not added: their external id was already in the campaign or the request',
  })
  ignored: IgnoredTargetDto[];
  @ApiProperty({ type: [String], description: 'The created ids, in request order' })
  target_ids: string[];
}
