/**
 * The pure rules of adding targets (by the API's add and by a CSV import): one target's input read
 * into a draft (validated and normalised, numbers read in the campaign's country), which external id
 * it carries, which inputs are duplicates, the state a new target starts in, and the row it becomes.
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
import type { PatientInput, Target, TargetStatus } from './target.js';
import {
  absentValue,
  type AddedFieldName,
  copyFields,
  type AddedFields,
  type AddedFieldsInput,
  FIELDS,
} from './target-fields.js';

/** One target to add, already validated and normalised (the fields of target-fields.ts as given). */
export interface TargetDraft extends AddedFields {
  /** Caller-supplied id (canonical lowercase UUID), or absent to have one generated. */
  id?: string;
  externalId: string | null;
  phoneNumber: string;
  phoneOperatingHours: WeekSchedule | null;
  fallbackPhoneNumber: string | null;
  fallbackOperatingHours: WeekSchedule | null;
  patient: PatientInput | null;
}

/** A row to insert: the draft with its id, owner and initial state. */
export interface NewTarget extends Omit<TargetDraft, 'id'> {
  id: string;
  organizationId: string;
  campaignId: string;
  status: TargetStatus;
  currentStep: string | null;
  scheduledTime: Date | null;
}

/**
 * The row a draft becomes in a campaign: its id, owner and initial state. Field by field (the
 * declared ones in a loop), not `{ ...draft, ...state }`: V8 copies spread objects on a slow path,
 * which was about a tenth of a 5,000-target request's CPU (docs/architecture.md, "Writes of many
 * rows").
 */
export function newTarget(
  draft: TargetDraft,
  id: string,
  owner: { organizationId: string; campaignId: string },
  state: Pick<NewTarget, 'status' | 'currentStep' | 'scheduledTime'>,
): NewTarget {
  const row: Omit<NewTarget, AddedFieldName> = {
    id,
    organizationId: owner.organizationId,
    campaignId: owner.campaignId,
    externalId: draft.externalId,
    phoneNumber: draft.phoneNumber,
    phoneOperatingHours: draft.phoneOperatingHours,
    fallbackPhoneNumber: draft.fallbackPhoneNumber,
    fallbackOperatingHours: draft.fallbackOperatingHours,
    patient: draft.patient,
    status: state.status,
    currentStep: state.currentStep,
    scheduledTime: state.scheduledTime,
  };
  return copyFields(row, 'field', draft, 'field') as NewTarget;
}

export interface IgnoredTarget {
  index: number;
  externalId: string;
}

/**
 * Splits the drafts into those to insert and the duplicates: an external id already in the campaign,
 * or one seen earlier in the same request (the first occurrence wins).
 */
export function partitionDuplicates(
  drafts: readonly Pick<TargetDraft, 'externalId'>[],
  existingExternalIds: ReadonlySet<string>,
): { keep: number[]; duplicates: IgnoredTarget[] } {
  const seen = new Set<string>();
  const keep: number[] = [];
  const duplicates: IgnoredTarget[] = [];
  drafts.forEach(({ externalId }, index) => {
    if (externalId !== null && (existingExternalIds.has(externalId) || seen.has(externalId))) {
      duplicates.push({ index, externalId });
    } else {
      if (externalId !== null) seen.add(externalId);
      keep.push(index);
    }
  });
  return { keep, duplicates };
}

/**
 * A campaign with an entry step parks new targets there (`Waiting`), even with `launch`: the step's data
 * schedules them (`merge_and_schedule`). Otherwise `launch` schedules them now, else they are `Pending`.
 */
export function initialState(
  campaign: { entryStep: string | null },
  launch: boolean,
  now: Date,
): Pick<NewTarget, 'status' | 'currentStep' | 'scheduledTime'> {
  if (campaign.entryStep !== null)
    return { status: 'Waiting', currentStep: campaign.entryStep, scheduledTime: null };
  if (launch) return { status: 'Scheduled', currentStep: null, scheduledTime: now };
  return { status: 'Pending', currentStep: null, scheduledTime: null };
}

/** What a target holds beyond its draft, owner and initial state when it is created. */
export type FreshTargetState = Omit<Target, keyof NewTarget | 'createdAt' | 'updatedAt'>;

/**
 * The one statement of a new target's starting values: no output, no call, no outcome, no hold. The
 * SQL adapter writes `outputData` and `attempts` from here and leaves the other columns NULL, as here;
 * the in-memory fake and the test builders start from it too.
 */
export function freshTargetState(): FreshTargetState {
  return {
    outputData: {},
    resolution: null,
    category: null,
    subcategory: null,
    outcome: null,
    callLogIds: null,
    lastCallDate: null,
    executionSeconds: null,
    faxLinks: null,
    payorApiData: null,
    preCallEhrIds: null,
    attempts: 0,
    retries: null,
    hold: null,
    callStartedAt: null,
    categorization: null,
    statistics: null,
    purgedAt: null,
    purgedParts: [],
  };
}

/** A new target as it reads once created. */
export function freshTarget(row: NewTarget, createdAt: Date, updatedAt: Date): Target {
  return { ...row, ...freshTargetState(), createdAt, updatedAt };
}

/** A number as the API takes it: a string, or `{value, operating_hours}`. */
export type PhoneInput =
  string | { value: string; operatingHours?: WeekSchedule | Record<string, unknown> | null };

/** A target as given (the fields of target-fields.ts under their domain names). */
export interface AddTargetInput extends AddedFieldsInput {
  id?: string;
  externalId?: string | null;
  phoneNumber: PhoneInput;
  fallbackPhoneNumber?: PhoneInput | null;
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
  const draft: Omit<TargetDraft, AddedFieldName> = {
    ...(input.id !== undefined ? { id: canonicalUuid(input.id)! } : {}),
    // DECISIONS (Targets): a target's external id is `external_id ?? patient.external_id`.
    externalId: input.externalId ?? input.patient?.external_id ?? null,
    phoneNumber: phone.number,
    phoneOperatingHours: phone.operatingHours,
    fallbackPhoneNumber: fallback?.number ?? null,
    fallbackOperatingHours: fallback?.operatingHours ?? null,
    patient: input.patient ?? null,
  };
  const given = input as unknown as Record<string, unknown>;
  const to = draft as unknown as Record<string, unknown>;
  for (const f of FIELDS) {
    const value = given[f.field] ?? absentValue(f);
    const error = f.rule !== undefined && value !== null ? f.rule(value) : null;
    if (error !== null) throw new InvalidInputError(error, [...loc, f.name], value);
    to[f.field] = value;
  }
  return draft as TargetDraft;
}

export function toTimeZone(
  zone: string | null | undefined,
  loc: (string | number)[],
): string | null {
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
