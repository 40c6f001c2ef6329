import { NullableString } from '../../../../common/http/response-properties.js';
import { applyDecorators } from '@nestjs/common';
import { ApiProperty } from '@nestjs/swagger';
import { plainToInstance, Transform, Type } from 'class-transformer';
import { ValidateBy, ValidateIf, ValidateNested } from 'class-validator';
import {
  isPlainObject,
  pyConstraint,
  PyDict,
  PyModelRule,
  PyEnum,
  PyOptional,
  PyRequired,
  PyStr,
  RANK_TYPE,
  RANK_VALUE,
  PyStorable,
} from '../../../../common/validation/py-validators.js';
import { pydantic } from '../../../../common/validation/pydantic-errors.js';
import { isPlainJson } from '../../../../common/validation/plain-json.js';
import { unstorableJsonError } from '../../../../common/validation/storable.js';
import { rawOf, withoutUnsafeKeys } from '../../../../common/validation/transform-safe.js';
import { TargetWithEhrIdsResponseDto } from '../../../target/api/dto/target-response.dto.js';
import { TARGET_REF_REQUIRED } from '../../application/step.service.js';
import { EHR_EVENT_TYPES, EhrEventType } from '../../domain/step.js';

export const MAX_BATCH_UPDATES = 5000;

export class StepUpdateDto {
  @PyOptional({
    nullable: true,
    description:
      'The target to update (its id). With external_id too, both must name the same target.',
  })
  @PyStr()
  target_id?: string | null;

  @PyOptional({
    nullable: true,
    description:
      "The target to update, by its external id in the campaign (when target_id isn't given)",
  })
  @PyStr()
  external_id?: string | null;

  @PyRequired({
    description:
      "Keys to set in the target's input_data (one level deep); keys not sent are left unchanged",
    example: { insurance_verified: true },
  })
  @PyDict()
  @PyStorable()
  input_data: Record<string, unknown>;
}

/** An element of `updates` that is not an object: kept apart so only its `model_type` error is reported. */
class NotAnUpdate {}

/**
 * An element already known to be valid field by field (see `fieldsValid`): it carries no validation
 * metadata, so class-validator passes over it instead of re-checking 5000 elements one decorator at a
 * time. Elements with a bad field become `StepUpdateDto` instances and get pydantic's field errors.
 */
class CheckedStepUpdate {
  target_id?: string | null;
  external_id?: string | null;
  input_data: Record<string, unknown>;
}

/** A list every check of `updates` passes: its length is allowed and each element is valid and names a target. */
function allChecked(value: unknown): boolean {
  if (!Array.isArray(value) || value.length < 1 || value.length > MAX_BATCH_UPDATES) return false;
  for (const u of value) {
    if (!(u instanceof CheckedStepUpdate) || (u.target_id == null && u.external_id == null))
      return false;
  }
  return true;
}

/**
 * Exactly what StepUpdateDto's field decorators accept; `storable`: the body is known to hold no
 * unstorable value (`isPlainJson`), so input_data need not be walked again.
 */
function fieldsValid(u: Record<string, unknown>, storable: boolean): boolean {
  return (
    (u.target_id == null || typeof u.target_id === 'string') &&
    (u.external_id == null || typeof u.external_id === 'string') &&
    isPlainObject(u.input_data) &&
    (storable || unstorableJsonError(u.input_data) === null)
  );
}

/**
 * `updates` as pydantic validates `conlist(StepUpdate, min_length=1, max_length=5000)` with a model
 * validator on StepUpdate: list type, then length, then per element `model_type` for non-objects and
 * the id rule (reported on the element, `["body", "updates", i]`, and like an `after` validator only for
 * elements whose fields are otherwise valid), then the elements' own fields.
 *
 * Built for 5000 elements (see docs/architecture.md, "Large request bodies"): class-transformer would deep-copy
 * every input_data before a @Transform runs; typing the elements as Boolean turns that pre-pass into a
 * cheap no-op (the trick `PyDict` uses), and the @Transform builds the elements from the raw body, uncopied.
 * A list the @Transform found valid throughout is not handed to class-validator at all (`ValidateIf`):
 * `ValidateNested` would still look up the (absent) metadata of each of the 5000 checked elements, the
 * largest validation cost of a valid batch. Any other list gets every check below, as before.
 */
function PyUpdateList(): PropertyDecorator {
  const elementErrors = (value: unknown) => {
    if (!Array.isArray(value) || value.length < 1 || value.length > MAX_BATCH_UPDATES) return [];
    const out: Record<string, unknown>[] = [];
    value.forEach((u, index) => {
      if (u instanceof NotAnUpdate) {
        out.push({ index, ...pydantic.modelType() });
      } else if (u instanceof CheckedStepUpdate && u.target_id == null && u.external_id == null) {
        out.push({ index, ...pydantic.valueError(TARGET_REF_REQUIRED) });
      }
    });
    return out;
  };
  return applyDecorators(
    pyConstraint('pyList', RANK_TYPE, (v) => (Array.isArray(v) ? null : pydantic.listType())),
    pyConstraint('pyListLength', RANK_VALUE, (v) => {
      if (!Array.isArray(v)) return null;
      if (v.length < 1) return pydantic.tooShort('List', 1, v.length);
      if (v.length > MAX_BATCH_UPDATES)
        return pydantic.tooLong('List', MAX_BATCH_UPDATES, v.length);
      return null;
    }),
    ValidateBy({
      name: 'pyUpdateItems',
      validator: {
        validate: (value) => elementErrors(value).length === 0,
        defaultMessage: (args) =>
          JSON.stringify({ rank: RANK_VALUE, items: elementErrors(args?.value) }),
      },
    }),
    Type(() => Boolean),
    Transform(({ obj, key }) => {
      const raw = rawOf(obj)[key];
      if (!Array.isArray(raw)) return raw;
      const storable = isPlainJson(rawOf(obj));
      return raw.map((u) => {
        if (!isPlainObject(u)) return new NotAnUpdate();
        if (!fieldsValid(u, storable)) return plainToInstance(StepUpdateDto, withoutUnsafeKeys(u));
        const checked = new CheckedStepUpdate();
        checked.target_id = u.target_id as string | null | undefined;
        checked.external_id = u.external_id as string | null | undefined;
        checked.input_data = u.input_data as Record<string, unknown>;
        return checked;
      });
    }),
    ValidateNested({ each: true }),
    ValidateIf((_obj, value) => !allChecked(value)),
  );
}

export class BatchStepDto {
  @PyRequired({
    type: [StepUpdateDto],
    minItems: 1,
    maxItems: MAX_BATCH_UPDATES,
    description:
      'Applied all or nothing. Each names its target by target_id or external_id. Several updates of one ' +
      'target are merged in array order (later keys win).',
  })
  @PyUpdateList()
  updates: StepUpdateDto[];
}

@PyModelRule((e: EhrEventDto) =>
  e.target_id == null && e.external_id == null ? TARGET_REF_REQUIRED : null,
)
export class EhrEventDto {
  @PyOptional({
    nullable: true,
    description:
      "The type of EHR event; the event id is listed under it in pre_call_ehr_ids ('unknown' if absent)",
  })
  @PyEnum(EHR_EVENT_TYPES)
  event_type?: EhrEventType | null;

  @PyOptional({
    default: {},
    description: "The event's data, merged into the target's input_data one level deep",
  })
  @PyDict()
  @PyStorable()
  event_data?: Record<string, unknown>;

  @PyOptional({
    nullable: true,
    description: 'The target (one of target_id, external_id is required)',
  })
  @PyStr()
  target_id?: string | null;

  @PyOptional({ nullable: true, description: 'The target by its external id in the campaign' })
  @PyStr()
  external_id?: string | null;
}

export class NotFoundUpdateDto {
  @ApiProperty({ type: 'integer', description: 'Position of the update in the request' })
  index: number;
  @NullableString() target_id: string | null;
  @NullableString() external_id: string | null;
}

export class BatchStepResponseDto {
  @ApiProperty({
    type: 'integer',
    description: 'Updates applied (updated + not_found = updates sent)',
  })
  updated: number;
  @ApiProperty({
    type: [NotFoundUpdateDto],
    description: 'Updates that named no target of the campaign',
  })
  not_found: NotFoundUpdateDto[];
}

export class EhrEventResponseDto {
  @ApiProperty({ description: 'Id of the stored event, also listed in target.pre_call_ehr_ids' })
  event_id: string;
  @ApiProperty({
    type: TargetWithEhrIdsResponseDto,
    description: 'The updated target, with pre_call_ehr_ids',
  })
  target: TargetWithEhrIdsResponseDto;
}
