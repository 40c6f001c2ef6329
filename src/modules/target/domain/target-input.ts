/**
 * One target of an add or an import, read as the API (or a CSV row) gives it: validated and
 * normalised into a draft, numbers read in the campaign's country. Shared by the add
 * (`TargetService.addTargets`) and the import (`TargetImportService`).
 */
import { InvalidInputError } from '../../../common/errors/domain-errors.js';
import {
  type CountryCode,
  DEFAULT_COUNTRY,
  PHONE_NUMBER_RULE,
  type PhoneReading,
  readPhoneNumber,
} from '../../../common/phone/phone-number.js';
import {
  normalizeWeekSchedule,
  timeZoneError,
  WeekSchedule,
  weekScheduleError,
} from '../../../common/schedule/week-schedule.js';
import { canonicalUuid, isUuid } from '../../../common/ids/canonical-uuid.js';
import { effectiveExternalId, TargetDraft } from './new-targets.js';
import type { PatientInput } from './target.js';

/** A number as the API takes it: a string, or `{value, operating_hours}`. */
export type PhoneInput =
  string | { value: string; operatingHours?: WeekSchedule | Record<string, unknown> | null };

export interface AddTargetInput {
  id?: string;
  externalId?: string | null;
  phoneNumber: PhoneInput;
  fallbackPhoneNumber?: PhoneInput | null;
  /** The recipient's IANA zone (else the dialled number's zones, else the organization's default). */
  timeZone?: string | null;
  inputData?: Record<string, unknown>;
  preCallData?: Record<string, unknown> | null;
  patient?: PatientInput | null;
}

/**
 * Validates and normalises one input; the DTO checks the same shapes, this keeps non-HTTP callers
 * honest and reads national numbers in `country` (only the service knows the campaign's).
 */
export function toDraft(
  input: AddTargetInput,
  index: number,
  country: CountryCode = DEFAULT_COUNTRY,
): TargetDraft {
  const loc = ['targets', index];
  if (input.id !== undefined && !isUuid(input.id)) {
    throw new InvalidInputError('id must be a UUID', [...loc, 'id'], input.id);
  }
  const phone = toPhone(input.phoneNumber, [...loc, 'phone_number'], country);
  const fallback =
    input.fallbackPhoneNumber === null || input.fallbackPhoneNumber === undefined
      ? null
      : toPhone(input.fallbackPhoneNumber, [...loc, 'fallback_phone_number'], country);
  return {
    ...(input.id !== undefined ? { id: canonicalUuid(input.id)! } : {}),
    externalId: effectiveExternalId(input.externalId, input.patient),
    phoneNumber: phone.number,
    phoneOperatingHours: phone.operatingHours,
    fallbackPhoneNumber: fallback?.number ?? null,
    fallbackOperatingHours: fallback?.operatingHours ?? null,
    timeZone: toTimeZone(input.timeZone, [...loc, 'time_zone']),
    patient: input.patient ?? null,
    preCallData: input.preCallData ?? null,
    inputData: input.inputData ?? {},
  };
}

export function toTimeZone(zone: string | null | undefined, loc: (string | number)[]): string | null {
  if (zone === null || zone === undefined) return null;
  const error = timeZoneError(zone);
  if (error) throw new InvalidInputError(error, loc, zone);
  return zone;
}

function toPhone(
  input: PhoneInput,
  loc: (string | number)[],
  country: CountryCode,
): { number: string; operatingHours: WeekSchedule | null } {
  const raw = typeof input === 'string' ? input : input.value;
  const reading: PhoneReading =
    typeof raw === 'string' ? readPhoneNumber(raw, country) : { error: PHONE_NUMBER_RULE };
  if ('error' in reading) {
    throw new InvalidInputError(
      reading.error,
      typeof input === 'string' ? loc : [...loc, 'value'],
      raw,
    );
  }
  const number = reading.number;
  const hours = typeof input === 'string' ? null : (input.operatingHours ?? null);
  if (hours === null) return { number, operatingHours: null };
  const error = weekScheduleError(hours);
  if (error !== null) throw new InvalidInputError(error, [...loc, 'operating_hours'], hours);
  return { number, operatingHours: normalizeWeekSchedule(hours as Record<string, unknown>) };
}
