/**
 * class-validator decorators that behave like pydantic v2 fields in lax mode (what FastAPI uses):
 * the same coercions (query strings to int/bool, 5.0 to 5) and the same error types and messages.
 *
 * Every constraint reports its error as JSON in the class-validator message, with a rank: the pipe keeps
 * one error per field, the lowest rank first (missing < type < value constraints), as pydantic does.
 */
import { applyDecorators } from '@nestjs/common';
import { canonicalUuid } from '../ids/canonical-uuid.js';
import { DATE_TIME, MILLISECONDS_FROM, TIMESTAMP } from '../dates/date-bounds.js';
import {
  mayBeNationalNumber,
  normalizePhoneNumber,
  PHONE_NUMBER_RULE,
  phoneNumberRule,
} from '../phone/phone-number.js';
import { ApiProperty, ApiPropertyOptional, type ApiPropertyOptions } from '@nestjs/swagger';
import { Transform, Type } from 'class-transformer';
import { ValidateBy, ValidateIf, ValidateNested, ValidationArguments } from 'class-validator';
import { pydantic, PydanticError } from './pydantic-errors.js';
import { rawOf } from './transform-safe.js';
import { definedOnly } from '../objects/defined-only.js';
import { unstorableJsonError } from './storable.js';

export const RANK_MISSING = 0;
export const RANK_TYPE = 1;
export const RANK_VALUE = 2;
/** Field validators (pydantic `field_validator`, mode after) run once type and constraints hold. */
export const RANK_RULE = 3;

/**
 * A value's pydantic error, or null when it is valid. A check may instead report errors located
 * deeper, as `items` by list index or `located` by path (see `RankedError` in the pipe), and may
 * give them a `rank` of their own.
 */
type Check = (
  value: unknown,
  args: ValidationArguments,
) => PydanticError | { rank?: number; items?: object[]; located?: object[] } | null;

/** Registers a constraint whose failure message carries the pydantic error as JSON. */
export function pyConstraint(name: string, rank: number, check: Check): PropertyDecorator {
  return ValidateBy({
    name,
    validator: {
      validate: (value, args) => check(value, args as ValidationArguments) === null,
      defaultMessage: (args) =>
        constraintMessage({ rank, ...(check(args?.value, args as ValidationArguments) ?? {}) }),
    },
  });
}

/**
 * The field's OpenAPI schema, from the same decorator that validates it, so the document cannot say one
 * type while the pipe checks another. An explicit @ApiProperty above adds descriptions and examples; the
 * keys it leaves out keep these values.
 */
function doc(schema: Record<string, unknown>): PropertyDecorator {
  return ApiProperty(definedOnly(schema));
}

const BIGINT_KEY = '$pydantic-bigint';

/** class-validator carries our errors as message text: JSON that keeps BigInt bounds (2^63 - 1) exact. */
export function constraintMessage(error: object): string {
  return JSON.stringify(error, (_key, value: unknown) =>
    typeof value === 'bigint' ? { [BIGINT_KEY]: value.toString() } : value,
  );
}

export function parseConstraintMessage(message: string): unknown {
  return JSON.parse(message, (_key, value: unknown) =>
    isPlainObject(value) && typeof value[BIGINT_KEY] === 'string'
      ? BigInt(value[BIGINT_KEY])
      : value,
  );
}

export function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * The key must be present; null goes on to the type check, or if `nullable` (pydantic's `X | None`
 * without a default) is a value that skips the field's other checks. `docs`: the field's description,
 * example and the like, added to the schema its type decorator gives.
 */
export function PyRequired(docs: ApiPropertyOptions = {}): PropertyDecorator {
  return applyDecorators(
    pyConstraint('pyRequired', RANK_MISSING, (v) => (v === undefined ? pydantic.missing() : null)),
    ...(docs.nullable
      ? [doc({ nullable: true }), ValidateIf((_obj, value) => value !== null)]
      : []),
    ApiProperty(docs),
  );
}

/**
 * Skip the field's checks when it is absent, and also when null if `nullable` (which the schema
 * then says too). `docs` as for `PyRequired`.
 */
export function PyOptional(docs: ApiPropertyOptions = {}): PropertyDecorator {
  return applyDecorators(
    doc({ required: false, nullable: docs.nullable || undefined }),
    ApiPropertyOptional(docs),
    ValidateIf((_obj, value) => value !== undefined && !(docs.nullable && value === null)),
  );
}

/** What Python's `int()` reads: sign, digits with `_` separators, an all-zero fraction, spaces around. */
const INT_STRING = /^\s*[+-]?\d+(?:_\d+)*(?:\.0+)?\s*$/;

/**
 * pydantic's lax int: integer strings and whole floats become numbers, booleans 0/1. An integer string
 * beyond JavaScript's exact range stays a BigInt so that bounds are checked exactly (`call_log_id` is
 * bounded by 2^63 - 1).
 */
export function coerceInt(value: unknown): unknown {
  if (typeof value === 'string' && INT_STRING.test(value)) {
    const digits = value.trim().replace(/_/g, '').replace(/\.0+$/, '');
    const n = Number(digits);
    return Number.isSafeInteger(n) ? n : BigInt(digits);
  }
  if (typeof value === 'boolean') return value ? 1 : 0;
  return value;
}

type IntBound = number | bigint;

export function PyInt(bounds: { ge?: IntBound; le?: IntBound } = {}): PropertyDecorator {
  // A BigInt bound has no exact JSON number: the document leaves it out (the 422 states it).
  const asNumber = (b?: IntBound) => (typeof b === 'number' ? b : undefined);
  return applyDecorators(
    doc({ type: 'integer', minimum: asNumber(bounds.ge), maximum: asNumber(bounds.le) }),
    Transform(({ value }) => coerceInt(value)),
    pyConstraint('pyInt', RANK_TYPE, (v) => {
      if (typeof v === 'bigint' || Number.isInteger(v)) return null;
      if (typeof v === 'number' && Number.isFinite(v)) return pydantic.intFromFloat();
      if (typeof v === 'string') return pydantic.intParsing();
      return pydantic.intType();
    }),
    pyConstraint('pyIntBounds', RANK_VALUE, (v) => {
      if (typeof v !== 'number' && typeof v !== 'bigint') return null;
      if (bounds.ge !== undefined && v < bounds.ge) return pydantic.greaterThanEqual(bounds.ge);
      if (bounds.le !== undefined && v > bounds.le) return pydantic.lessThanEqual(bounds.le);
      return null;
    }),
  );
}

/** pydantic's lax float: numeric strings become numbers (booleans too, as 0/1). */
export function coerceFloat(value: unknown): unknown {
  if (typeof value === 'string' && value.trim() !== '' && Number.isFinite(Number(value))) {
    return Number(value);
  }
  if (typeof value === 'boolean') return value ? 1 : 0;
  return value;
}

/** A number (pydantic `float`), bounded by `gt` (exclusive) and `le` (inclusive) when given. */
export function PyFloat(bounds: { gt?: number; le?: number } = {}): PropertyDecorator {
  return applyDecorators(
    doc({
      type: 'number',
      minimum: bounds.gt,
      exclusiveMinimum: bounds.gt === undefined ? undefined : true,
      maximum: bounds.le,
    }),
    Transform(({ value }) => coerceFloat(value)),
    pyConstraint('pyFloat', RANK_TYPE, (v) => {
      if (typeof v === 'number' && Number.isFinite(v)) return null;
      if (typeof v === 'string') return pydantic.floatParsing();
      return pydantic.floatType();
    }),
    pyConstraint('pyFloatBounds', RANK_VALUE, (v) => {
      if (typeof v !== 'number') return null;
      if (bounds.gt !== undefined && !(v > bounds.gt)) return pydantic.greaterThan(bounds.gt);
      if (bounds.le !== undefined && v > bounds.le) return pydantic.lessThanEqual(bounds.le);
      return null;
    }),
  );
}

const TRUE_STRINGS = new Set(['1', 'on', 't', 'true', 'y', 'yes']);
const FALSE_STRINGS = new Set(['0', 'off', 'f', 'false', 'n', 'no']);

export function coerceBool(value: unknown): unknown {
  if (typeof value === 'string') {
    const s = value.trim().toLowerCase();
    if (TRUE_STRINGS.has(s)) return true;
    if (FALSE_STRINGS.has(s)) return false;
  }
  if (value === 0 || value === 1) return value === 1;
  return value;
}

/** pydantic: 0 and 1 are booleans, other whole numbers cannot be read as one, anything else is no bool. */
function boolError(v: unknown): PydanticError | null {
  if (typeof v === 'boolean') return null;
  if (typeof v === 'string' || (typeof v === 'number' && Number.isInteger(v))) {
    return pydantic.boolParsing();
  }
  return pydantic.boolType();
}

export function PyBool(): PropertyDecorator {
  return applyDecorators(
    doc({ type: 'boolean' }),
    Transform(({ value }) => coerceBool(value)),
    pyConstraint('pyBool', RANK_TYPE, boolError),
  );
}

const SURROGATE_PAIR = /[\ud800-\udbff][\udc00-\udfff]/g;

/**
 * A string's length as Python, and so pydantic, counts it: in code points. JavaScript's `length` counts
 * UTF-16 units, two for each character outside the Basic Multilingual Plane (an emoji, most CJK
 * extensions), which would refuse a 600-character id of emoji as 1,200 long.
 */
export function pyLength(s: string): number {
  return s.length - (s.match(SURROGATE_PAIR)?.length ?? 0);
}

export const checkString = (v: unknown): PydanticError | null =>
  typeof v === 'string' ? null : pydantic.stringType();

export function PyStr(length: { min?: number; max?: number } = {}): PropertyDecorator {
  return applyDecorators(
    doc({ type: 'string', minLength: length.min, maxLength: length.max }),
    pyConstraint('pyStr', RANK_TYPE, checkString),
    pyConstraint('pyStrLength', RANK_VALUE, (v) => {
      if (typeof v !== 'string') return null;
      if (length.min !== undefined && pyLength(v) < length.min)
        return pydantic.stringTooShort(length.min);
      if (length.max !== undefined && v.length > length.max && pyLength(v) > length.max)
        return pydantic.stringTooLong(length.max);
      return null;
    }),
  );
}

/**
 * A free-form JSON object (pydantic `dict[str, Any]`), kept exactly as received. class-transformer
 * would otherwise walk into it: it throws on a `constructor` key and drops keys like `toString`.
 * Typed as Boolean its own pass never looks inside, and the raw value is put back.
 */
export function PyDict(): PropertyDecorator {
  return applyDecorators(
    doc({ type: 'object', additionalProperties: true }),
    Type(() => Boolean),
    Transform(({ obj, key }) => rawOf(obj)[key]),
    pyConstraint('pyDict', RANK_TYPE, (v) => (isPlainObject(v) ? null : pydantic.dictType())),
  );
}

export function PyEnum(values: readonly (string | number)[]): PropertyDecorator {
  return applyDecorators(
    doc({ enum: [...values] }),
    pyConstraint('pyEnum', RANK_TYPE, (v) =>
      values.includes(v as string) ? null : pydantic.enum(values),
    ),
  );
}

/** A list's own checks, before its elements': a list, then its length. */
const listChecks = (length: { min?: number; max?: number }) => [
  pyConstraint('pyList', RANK_TYPE, (v) => (Array.isArray(v) ? null : pydantic.listType())),
  pyConstraint('pyListLength', RANK_VALUE, (v) => lengthCheck(v, length)),
];

function lengthCheck(v: unknown, length: { min?: number; max?: number }): PydanticError | null {
  if (!Array.isArray(v)) return null;
  if (length.min !== undefined && v.length < length.min)
    return pydantic.tooShort('List', length.min, v.length);
  if (length.max !== undefined && v.length > length.max)
    return pydantic.tooLong('List', length.max, v.length);
  return null;
}

/** A list of plain values, each checked by `item` (a pydantic check returning null when valid). */
export function PyList(
  length: { min?: number; max?: number } = {},
  item?: (value: unknown) => PydanticError | null,
): PropertyDecorator {
  return applyDecorators(
    doc({
      type: 'array',
      items: item === uuidError ? { type: 'string', format: 'uuid' } : { type: 'string' },
      minItems: length.min,
      maxItems: length.max,
    }),
    ...listChecks(length),
    ...(item ? [pyListItems(item)] : []),
  );
}

/** Item errors are reported by index, so they are not ranked against the list's own errors. */
function pyListItems(item: (value: unknown) => PydanticError | null): PropertyDecorator {
  return pyConstraint('pyListItems', RANK_VALUE, (v) => {
    if (!Array.isArray(v)) return null;
    const items: (PydanticError & { index: number })[] = [];
    v.forEach((x, index) => {
      const error = item(x);
      if (error !== null) items.push({ index, ...error });
    });
    return items.length === 0 ? null : { items };
  });
}

/** A nested model. Non-objects get pydantic's `model_type`. */
export function PyModel(cls: () => new () => object): PropertyDecorator {
  return applyDecorators(
    doc({ type: cls }),
    pyConstraint('pyModel', RANK_TYPE, (v) => (isPlainObject(v) ? null : pydantic.modelType())),
    ValidateNested(),
    Type(cls),
  );
}

/**
 * A list of nested models: list type, length, then each element as a model.
 *
 * `checked`, for lists of thousands of elements (see docs/architecture.md, "Large request bodies"): returns an element that is
 * already known valid field by field as the object the controller gets (of a class with no validation
 * metadata, so class-validator passes over it), or null. When every element of a list passes it, the
 * elements are built from the raw body by it, and class-transformer's deep copy (typed Boolean, the trick
 * `PyDict` uses) and the per-decorator validation are skipped. When any element does not, the whole list
 * takes the usual path, so every error is exactly the decorators'. It must accept only what the model's
 * decorators accept, and hand on what they would (a property test per use checks both).
 */
export function PyModelList(
  cls: () => new () => object,
  length: { min?: number; max?: number } = {},
  checked?: (element: Record<string, unknown>) => object | null,
): PropertyDecorator {
  const common = [
    doc({ type: cls, isArray: true, minItems: length.min, maxItems: length.max }),
    ...listChecks(length),
    pyListItems((x) => (isPlainObject(x) ? null : pydantic.modelType())),
    ValidateNested({ each: true }),
  ];
  if (!checked) return applyDecorators(...common, Type(cls));

  // The type function and the transform both ask; the raw list is checked once.
  const seen = new WeakMap<unknown[], object[] | null>();
  // Lists built by `checked` whose every decorator is known to pass (type, length, each element):
  // class-validator skips the property, instead of looking up metadata for each of 10,000 elements.
  const passed = new WeakSet<object[]>();
  const allChecked = (list: unknown): object[] | null => {
    if (!Array.isArray(list) || lengthCheck(list, length)) return null;
    if (seen.has(list)) return seen.get(list)!;
    const out: object[] = [];
    for (const element of list) {
      const ok = isPlainObject(element) ? checked(element) : null;
      if (!ok) {
        seen.set(list, null);
        return null;
      }
      out.push(ok);
    }
    seen.set(list, out);
    passed.add(out);
    return out;
  };
  return applyDecorators(
    ...common,
    ValidateIf((_object, value) => !passed.has(value)),
    Type((options) =>
      options && allChecked(rawOf(options.object)[options.property]) ? Boolean : cls(),
    ),
    Transform(({ obj, key, value }) => allChecked(rawOf(obj)[key]) ?? value),
  );
}

const UUID_GROUP_LENGTHS = [8, 4, 4, 4, 12];

/** Why `v` is not a UUID, in the words of the Rust `uuid` crate pydantic uses; null when it is one. */
export function uuidError(v: unknown): PydanticError | null {
  if (typeof v !== 'string')
    return { type: 'uuid_type', msg: 'UUID input should be a string, bytes or UUID object' };
  const offset = v.startsWith('urn:uuid:') ? 9 : v.startsWith('{') && v.endsWith('}') ? 1 : 0;
  const body = offset === 1 ? v.slice(1, -1) : v.slice(offset);
  const bad = [...body].findIndex((c) => !/[0-9a-fA-F-]/.test(c));
  if (bad >= 0)
    return pydantic.uuidParsing(
      `invalid character: found \`${[...body][bad]}\` at ${offset + bad + 1}`,
    );
  const groups = body.split('-');
  if (groups.length === 1) {
    return body.length === 32
      ? null
      : pydantic.uuidParsing(
          `invalid length: expected length 32 for simple format, found ${body.length}`,
        );
  }
  if (groups.length !== 5) {
    return pydantic.uuidParsing(`invalid group count: expected 5, found ${groups.length}`);
  }
  const wrong = groups.findIndex((g, i) => g.length !== UUID_GROUP_LENGTHS[i]);
  if (wrong >= 0) {
    return pydantic.uuidParsing(
      `invalid group length in group ${wrong}: expected ${UUID_GROUP_LENGTHS[wrong]}, found ${groups[wrong].length}`,
    );
  }
  return null;
}

/** A valid UUID in any form pydantic reads, as PostgreSQL and the services expect it: 8-4-4-4-12, lower case. */
export function canonicalUuidInput(v: unknown): unknown {
  if (uuidError(v) !== null) return v;
  return canonicalUuid((v as string).replace(/^urn:uuid:|[{}]/g, '')) ?? v;
}

export function PyUuid(): PropertyDecorator {
  return applyDecorators(
    doc({ type: 'string', format: 'uuid' }),
    Transform(({ value }) => canonicalUuidInput(value)),
    pyConstraint('pyUuid', RANK_TYPE, uuidError),
  );
}

const MAX_TIMESTAMP_SECONDS = 253402300799;
const MIN_TIMESTAMP_SECONDS = -62135596800;

const isDigits = (s: string) => /^\d+$/.test(s);

/** Why `YYYY-MM-DD` is not a date, in speedate's words (what pydantic reports); null when it is one. */
function dateError(v: string): string | null {
  if (v.length < 10) return 'input is too short';
  if (!isDigits(v.slice(0, 4))) return 'invalid character in year';
  if (v[4] !== '-') return 'invalid date separator, expected `-`';
  if (!isDigits(v.slice(5, 7))) return 'invalid character in month';
  if (v[7] !== '-') return 'invalid date separator, expected `-`';
  if (!isDigits(v.slice(8, 10))) return 'invalid character in day';
  const [y, m, d] = [v.slice(0, 4), v.slice(5, 7), v.slice(8, 10)].map(Number);
  if (m < 1 || m > 12) return 'month value is outside expected range of 1-12';
  if (d < 1 || d > new Date(Date.UTC(y, m, 0)).getUTCDate()) {
    return 'day value is outside expected range';
  }
  if (v.length > 10) return 'unexpected extra characters at the end of the input';
  return null;
}

function isDateTime(v: string): boolean {
  const m = DATE_TIME.exec(v);
  if (!m || dateError(v.slice(0, 10)) !== null) return false;
  const [hour, minute, second, offsetHours, offsetMinutes] = [m[4], m[5], m[6], m[10], m[11]].map(
    (x) => (x === undefined ? 0 : Number(x)),
  );
  return hour <= 23 && minute <= 59 && second <= 59 && offsetHours <= 23 && offsetMinutes <= 59;
}

function timestampRangeError(value: number): string | null {
  const seconds = Math.abs(value) > MILLISECONDS_FROM ? value / 1000 : value;
  if (seconds > MAX_TIMESTAMP_SECONDS)
    return 'dates after 9999 are not supported as unix timestamps';
  if (seconds < MIN_TIMESTAMP_SECONDS)
    return 'dates before 0000 are not supported as unix timestamps';
  return null;
}

/**
 * pydantic's lax `datetime`: an ISO-8601 date-time, a date (midnight), or a unix timestamp in seconds
 * or milliseconds, as a number or a numeric string. Null when `v` is one.
 */
export function dateTimeError(v: unknown): PydanticError | null {
  if (typeof v === 'number') {
    const error = Number.isFinite(v) ? timestampRangeError(v) : 'NaN values not permitted';
    return error === null
      ? null
      : {
          type: 'datetime_parsing',
          msg: `Input should be a valid datetime, ${error}`,
          ctx: { error },
        };
  }
  if (typeof v !== 'string')
    return { type: 'datetime_type', msg: 'Input should be a valid datetime' };
  if (isDateTime(v)) return null;
  const error = TIMESTAMP.test(v) ? timestampRangeError(Number(v)) : dateError(v);
  return error === null ? null : pydantic.datetimeFromDateParsing(error);
}

/** For rules comparing dates: true when `dateTimeError` accepts the value. */
export function isDateTimeInput(v: unknown): v is string | number {
  return dateTimeError(v) === null;
}

/** A date, date-time or unix timestamp (see `dateTimeError`), kept as received; see `common/dates/date-bounds`. */
export function PyDateOrDateTime(): PropertyDecorator {
  return applyDecorators(
    doc({ type: 'string', format: 'date-time' }),
    pyConstraint('pyDateTime', RANK_TYPE, (v) => dateTimeError(v)),
  );
}

/** A rule across fields or beyond a type: pydantic's `value_error` ("Value error, ..."). */
export function PyValueRule(
  name: string,
  rule: (value: unknown, object: any) => string | null,
): PropertyDecorator {
  return pyConstraint(name, RANK_RULE, (v, args) => {
    const message = rule(v, args.object);
    return message === null ? null : pydantic.valueError(message);
  });
}

/** A `value_error` for values PostgreSQL could not store (see `unstorableJsonError`). */
export function PyStorable(): PropertyDecorator {
  return PyValueRule('pyStorable', (v) => unstorableJsonError(v));
}

/** A string that normalises to an E.164 number (`common/phone`), else `value_error` with the rule. */
export const PyPhoneNumber = () =>
  PyValueRule('phoneNumber', (v) =>
    typeof v !== 'string' || normalizePhoneNumber(v) ? null : PHONE_NUMBER_RULE,
  );

/**
 * `PyPhoneNumber` that also lets a candidate national number through (8 to 15 digits, no `+`): the
 * service reads it in the organization's country and refuses it there with libphonenumber's reason.
 */
export const PyPhoneNumberOrNational = () =>
  PyValueRule('phoneNumberOrNational', (v) =>
    typeof v !== 'string' || normalizePhoneNumber(v) || mayBeNationalNumber(v)
      ? null
      : phoneNumberRule(v),
  );

/** `PyPhoneNumberOrNational` for the items of a `PyList`. */
export const phoneNumberOrNationalItemError = (v: unknown): PydanticError | null =>
  checkString(v) ??
  (normalizePhoneNumber(v as string) || mayBeNationalNumber(v as string)
    ? null
    : pydantic.valueError(phoneNumberRule(v)));

const MODEL_RULES = Symbol('pyModelRules');
type ModelRule = (model: any) => string | null;

/**
 * A rule over a whole request model, pydantic's `model_validator(mode="after")`: it runs only when every
 * field is valid and reports `value_error` at the model's own location, with the model's raw input.
 */
export function PyModelRule(rule: ModelRule): ClassDecorator {
  return (target) => {
    const rules: ModelRule[] = Reflect.getOwnMetadata(MODEL_RULES, target) ?? [];
    Reflect.defineMetadata(MODEL_RULES, [...rules, rule], target);
  };
}

export function modelRuleErrors(metatype: object, model: unknown): PydanticError[] {
  const rules: ModelRule[] = Reflect.getMetadata(MODEL_RULES, metatype) ?? [];
  return rules
    .map((rule) => rule(model))
    .filter((message): message is string => message !== null)
    .map((message) => pydantic.valueError(message));
}
