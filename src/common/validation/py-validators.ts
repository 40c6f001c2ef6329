/**
 * class-validator decorators that behave like pydantic v2 fields in lax mode (what FastAPI uses):
 * the same coercions (query strings to int/bool, 5.0 to 5) and the same error types and messages.
 *
 * Every constraint reports its error as JSON in the class-validator message, with a rank: the pipe keeps
 * one error per field, the lowest rank first (missing < type < value constraints), as pydantic does.
 */
import { applyDecorators } from '@nestjs/common';
import { Transform, Type } from 'class-transformer';
import { ValidateBy, ValidateIf, ValidateNested, ValidationArguments } from 'class-validator';
import { pydantic, PydanticError } from './pydantic-errors';

export const RANK_MISSING = 0;
export const RANK_TYPE = 1;
export const RANK_VALUE = 2;

type Check = (value: unknown, args: ValidationArguments) => PydanticError | null;

/** Registers a constraint whose failure message carries the pydantic error as JSON. */
export function pyConstraint(name: string, rank: number, check: Check): PropertyDecorator {
  return ValidateBy({
    name,
    validator: {
      validate: (value, args) => check(value, args as ValidationArguments) === null,
      defaultMessage: (args) =>
        JSON.stringify({ rank, ...(check(args?.value, args as ValidationArguments) ?? {}) }),
    },
  });
}

export function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The key must be present (null is a value and goes on to the type check). */
export function PyRequired(): PropertyDecorator {
  return pyConstraint('pyRequired', RANK_MISSING, (v) =>
    v === undefined ? pydantic.missing() : null,
  );
}

/** Skip the field's checks when it is absent, and also when null if `nullable`. */
export function PyOptional(options: { nullable?: boolean } = {}): PropertyDecorator {
  return ValidateIf((_obj, value) => value !== undefined && !(options.nullable && value === null));
}

const INT_STRING = /^\s*[+-]?\d+\s*$/;

export function coerceInt(value: unknown): unknown {
  if (typeof value === 'string' && INT_STRING.test(value)) return Number(value.trim());
  if (typeof value === 'number' && Number.isInteger(value)) return value;
  if (typeof value === 'boolean') return value ? 1 : 0;
  return value;
}

export function PyInt(bounds: { ge?: number; le?: number } = {}): PropertyDecorator {
  return applyDecorators(
    Transform(({ value }) => coerceInt(value)),
    pyConstraint('pyInt', RANK_TYPE, (v) => {
      if (typeof v === 'number' && Number.isSafeInteger(v)) return null;
      if (typeof v === 'number' && Number.isFinite(v)) return pydantic.intFromFloat();
      if (typeof v === 'string') return pydantic.intParsing();
      return pydantic.intType();
    }),
    pyConstraint('pyIntBounds', RANK_VALUE, (v) => {
      if (typeof v !== 'number') return null;
      if (bounds.ge !== undefined && v < bounds.ge) return pydantic.greaterThanEqual(bounds.ge);
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

export function PyBool(): PropertyDecorator {
  return applyDecorators(
    Transform(({ value }) => coerceBool(value)),
    pyConstraint('pyBool', RANK_TYPE, (v) => {
      if (typeof v === 'boolean') return null;
      if (typeof v === 'string' || typeof v === 'number') return pydantic.boolParsing();
      return pydantic.boolType();
    }),
  );
}

export function PyStr(length: { min?: number; max?: number } = {}): PropertyDecorator {
  return applyDecorators(
    pyConstraint('pyStr', RANK_TYPE, (v) => (typeof v === 'string' ? null : pydantic.stringType())),
    pyConstraint('pyStrLength', RANK_VALUE, (v) => {
      if (typeof v !== 'string') return null;
      if (length.min !== undefined && v.length < length.min)
        return pydantic.stringTooShort(length.min);
      if (length.max !== undefined && v.length > length.max)
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
    Type(() => Boolean),
    Transform(({ obj, key }) => obj[key]),
    pyConstraint('pyDict', RANK_TYPE, (v) => (isPlainObject(v) ? null : pydantic.dictType())),
  );
}

export function PyEnum(values: readonly (string | number)[]): PropertyDecorator {
  return pyConstraint('pyEnum', RANK_TYPE, (v) =>
    values.includes(v as string) ? null : pydantic.enum(values),
  );
}

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
    pyConstraint('pyList', RANK_TYPE, (v) => (Array.isArray(v) ? null : pydantic.listType())),
    pyConstraint('pyListLength', RANK_VALUE, (v) => lengthCheck(v, length)),
    ...(item ? [pyListItems(item)] : []),
  );
}

/** Item errors are reported by index, so they are not ranked against the list's own errors. */
function pyListItems(item: (value: unknown) => PydanticError | null): PropertyDecorator {
  return ValidateBy({
    name: 'pyListItems',
    validator: {
      validate: (v) => !Array.isArray(v) || v.every((x) => item(x) === null),
      defaultMessage: (args) => {
        const items = (args?.value as unknown[])
          .map((x, index) => ({ index, error: item(x) }))
          .filter((e) => e.error !== null)
          .map((e) => ({ index: e.index, ...e.error }));
        return JSON.stringify({ rank: RANK_VALUE, items });
      },
    },
  });
}

export const checkString = (v: unknown): PydanticError | null =>
  typeof v === 'string' ? null : pydantic.stringType();

/** A nested model. Non-objects get pydantic's `model_type`. */
export function PyModel(cls: () => new () => object): PropertyDecorator {
  return applyDecorators(
    pyConstraint('pyModel', RANK_TYPE, (v) => (isPlainObject(v) ? null : modelType(cls().name))),
    ValidateNested(),
    Type(cls),
  );
}

/** A list of nested models: list type, length, then each element as a model. */
export function PyModelList(
  cls: () => new () => object,
  length: { min?: number; max?: number } = {},
): PropertyDecorator {
  return applyDecorators(
    pyConstraint('pyList', RANK_TYPE, (v) => (Array.isArray(v) ? null : pydantic.listType())),
    pyConstraint('pyListLength', RANK_VALUE, (v) => lengthCheck(v, length)),
    pyListItems((x) => (isPlainObject(x) ? null : modelType(cls().name))),
    ValidateNested({ each: true }),
    Type(cls),
  );
}

function modelType(className: string): PydanticError {
  return {
    type: 'model_type',
    msg: `Input should be a valid dictionary or instance of ${className}`,
    ctx: { class_name: className },
  };
}

const UUID_RE = /^[0-9a-fA-F]{8}-?[0-9a-fA-F]{4}-?[0-9a-fA-F]{4}-?[0-9a-fA-F]{4}-?[0-9a-fA-F]{12}$/;

export function isUuid(value: unknown): value is string {
  return typeof value === 'string' && UUID_RE.test(value);
}

export function uuidError(v: unknown): PydanticError | null {
  if (typeof v !== 'string')
    return { type: 'uuid_type', msg: 'UUID input should be a string, bytes or UUID object' };
  if (UUID_RE.test(v)) return null;
  const bad = [...v].findIndex((c) => !/[0-9a-fA-F-]/.test(c));
  if (bad >= 0)
    return pydantic.uuidParsing(
      `invalid character: expected an optional prefix of \`urn:uuid:\` followed by [0-9a-fA-F-], found \`${v[bad]}\` at ${bad + 1}`,
    );
  if (v.includes('-'))
    return pydantic.uuidParsing(`invalid group count: expected 5, found ${v.split('-').length}`);
  return pydantic.uuidParsing(
    `invalid length: expected length 32 for simple format, found ${v.length}`,
  );
}

export function PyUuid(): PropertyDecorator {
  return pyConstraint('pyUuid', RANK_TYPE, uuidError);
}

const DATE_RE = /^(\d{4})-(\d{2})-(\d{2})$/;
const DATETIME_RE =
  /^(\d{4})-(\d{2})-(\d{2})[T ](\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,6}))?)?(Z|[+-]\d{2}:?\d{2})?$/i;

/** Why a date or date-time string is not one, in pydantic's words; null when it is valid. */
export function dateOrDateTimeError(v: unknown): string | null {
  if (typeof v !== 'string') return 'input is not a string';
  if (v.length < 10) return 'input is too short';
  const m = DATE_RE.exec(v) ?? DATETIME_RE.exec(v);
  if (!m) {
    if (!/^\d{4}/.test(v)) return 'invalid character in year';
    if (v[4] !== '-') return 'invalid date separator, expected `-`';
    if (!/^\d{4}-\d{2}/.test(v)) return 'invalid character in month';
    if (!/^\d{4}-\d{2}-\d{2}/.test(v)) return 'invalid character in day';
    if (v.length > 10 && !/[T t]/.test(v[10]))
      return 'unexpected extra characters at the end of the input';
    return 'invalid time separator, expected `T`, `t`, `_` or space';
  }
  const [, y, mo, d] = m.map(Number);
  if (mo < 1 || mo > 12) return 'month value is outside expected range of 1-12';
  const days = new Date(Date.UTC(y, mo, 0)).getUTCDate();
  if (d < 1 || d > days) return 'day value is outside expected range';
  if (m.length > 4 && m[4] !== undefined) {
    if (Number(m[4]) > 23) return 'hour value is outside expected range of 0-23';
    if (Number(m[5]) > 59) return 'minute value is outside expected range of 0-59';
    if (m[6] !== undefined && Number(m[6]) > 59)
      return 'second value is outside expected range of 0-59';
    const offset = /^[+-](\d{2}):?(\d{2})$/.exec(m[8] ?? '');
    if (offset && (Number(offset[1]) > 23 || Number(offset[2]) > 59)) {
      return 'timezone offset must be less than 24 hours';
    }
  }
  return null;
}

/** A `YYYY-MM-DD` date or an ISO-8601 date-time, kept as the string; see `common/http/date-bounds`. */
export function PyDateOrDateTime(): PropertyDecorator {
  return pyConstraint('pyDateTime', RANK_TYPE, (v) => {
    const error = dateOrDateTimeError(v);
    return error === null ? null : pydantic.datetimeFromDateParsing(error);
  });
}

/** A rule across fields or beyond a type: pydantic's `value_error` ("Value error, ..."). */
export function PyValueRule(
  name: string,
  rule: (value: unknown, object: any) => string | null,
): PropertyDecorator {
  return pyConstraint(name, RANK_VALUE, (v, args) => {
    const message = rule(v, args.object);
    return message === null ? null : pydantic.valueError(message);
  });
}
