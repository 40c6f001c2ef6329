/**
 * Validators for the nested shapes whose errors pydantic reports deep inside a field: the WeekSchedule of
 * `calling_window` / `operating_hours` and the phone number's `str | TargetInputPhoneNumber` union (one
 * error per union branch, tagged `str` / `TargetInputPhoneNumber` in `loc`). Each returns errors located
 * relative to the field, with the input pydantic shows, in pydantic's order.
 */
import { applyDecorators } from '@nestjs/common';
import { Transform, Type } from 'class-transformer';
import {
  mayBeNationalNumber,
  normalizePhoneNumber,
  phoneNumberRule,
} from '../phone/phone-number.js';
import { HH_MM, isValidTimeZone, WEEKDAYS } from '../schedule/week-schedule.js';
import { isPlainObject, pyConstraint, RANK_TYPE, RANK_VALUE } from './py-validators.js';
import { rawOf } from './transform-safe.js';
import { Loc, pydantic, PydanticError } from './pydantic-errors.js';

export interface LocatedError extends PydanticError {
  at: Loc;
  input: unknown;
}

export const TIME_RULE = 'time must be HH:MM, 00:00 to 24:00';
export const INTERVAL_RULE = 'an interval must end after it starts';
export const TZ_RULE = 'tz must be an IANA time zone name';
const SCHEDULE_KEYS = new Set<string>([...WEEKDAYS, 'tz']);

const at = (loc: Loc, error: PydanticError, input: unknown): LocatedError => ({
  ...error,
  at: loc,
  input,
});

function timeErrors(interval: Record<string, unknown>, loc: Loc): LocatedError[] {
  const out: LocatedError[] = [];
  for (const key of ['start', 'end']) {
    const v = interval[key];
    if (v === undefined) out.push(at([...loc, key], pydantic.missing(), interval));
    else if (typeof v !== 'string') out.push(at([...loc, key], pydantic.stringType(), v));
    else if (!HH_MM.test(v)) out.push(at([...loc, key], pydantic.valueError(TIME_RULE), v));
  }
  return out;
}

/** pydantic's WeekSchedule (extra keys forbidden, DECISIONS rules as validators). */
export function weekScheduleErrors(value: unknown, loc: Loc = []): LocatedError[] {
  if (!isPlainObject(value)) return [at(loc, pydantic.modelType(), value)];
  const out: LocatedError[] = [];
  for (const day of WEEKDAYS) {
    const intervals = value[day];
    if (intervals === undefined) continue;
    if (!Array.isArray(intervals)) {
      out.push(at([...loc, day], pydantic.listType(), intervals));
      continue;
    }
    intervals.forEach((interval: unknown, i) => {
      if (!isPlainObject(interval)) {
        out.push(at([...loc, day, i], pydantic.modelType(), interval));
        return;
      }
      const errors = timeErrors(interval, [...loc, day, i]);
      out.push(...errors);
      if (errors.length === 0 && (interval.start as string) >= (interval.end as string)) {
        out.push(at([...loc, day, i], pydantic.valueError(INTERVAL_RULE), interval));
      }
    });
  }
  const tz = value.tz;
  if (tz !== undefined) {
    if (typeof tz !== 'string') out.push(at([...loc, 'tz'], pydantic.stringType(), tz));
    else if (!isValidTimeZone(tz)) out.push(at([...loc, 'tz'], pydantic.valueError(TZ_RULE), tz));
  }
  for (const key of Object.keys(value)) {
    if (!SCHEDULE_KEYS.has(key)) out.push(at([...loc, key], pydantic.extraForbidden(), value[key]));
  }
  return out;
}

const PHONE_MODEL = 'TargetInputPhoneNumber';

/**
 * Whether a number passes the request's own check: E.164, or a candidate national number, which the
 * service reads in the campaign's country (it knows the country, the request model does not).
 */
const phoneShapeValid = (raw: string) => !!normalizePhoneNumber(raw) || mayBeNationalNumber(raw);

/** `str | TargetInputPhoneNumber`, then the E.164 rule as a field validator on the whole value. */
export function phoneNumberErrors(value: unknown): LocatedError[] {
  if (typeof value === 'string') {
    return phoneShapeValid(value)
      ? []
      : [at([], pydantic.valueError(phoneNumberRule(value)), value)];
  }
  const asString = at(['str'], pydantic.stringType(), value);
  if (!isPlainObject(value)) return [asString, at([PHONE_MODEL], pydantic.modelType(), value)];
  const modelErrors: LocatedError[] = [];
  if (value.value === undefined) {
    modelErrors.push(at([PHONE_MODEL, 'value'], pydantic.missing(), value));
  } else if (typeof value.value !== 'string') {
    modelErrors.push(at([PHONE_MODEL, 'value'], pydantic.stringType(), value.value));
  }
  const hours = value.operating_hours;
  if (hours !== undefined && hours !== null) {
    modelErrors.push(...weekScheduleErrors(hours, [PHONE_MODEL, 'operating_hours']));
  }
  if (modelErrors.length > 0) return [asString, ...modelErrors];
  return phoneShapeValid(value.value as string)
    ? []
    : [at([], pydantic.valueError(phoneNumberRule(value.value)), value)];
}

/**
 * A field validated by one of the functions above. Its errors travel to the pipe as `located` (see
 * `toItems`); the raw value is kept (typed as Boolean, class-transformer does not walk into it).
 */
export function PyLocated(name: string, errors: (value: unknown) => LocatedError[]) {
  const rank = (found: LocatedError[]) =>
    found.length === 1 && found[0].at.length === 0 && found[0].type !== 'value_error'
      ? RANK_TYPE
      : RANK_VALUE;
  return applyDecorators(
    Type(() => Boolean),
    Transform(({ obj, key }) => rawOf(obj)[key]),
    pyConstraint(name, RANK_VALUE, (value) => {
      const found = errors(value);
      return found.length === 0 ? null : { rank: rank(found), located: found };
    }),
  );
}
