/**
 * The pure rules of adding targets: which external id a target carries, which inputs are duplicates,
 * and the state a new target starts in.
 */
import type { WeekSchedule } from '../../../common/schedule/week-schedule.js';
import type { PatientInput, Target, TargetStatus } from './target.js';

/** One target to add, already validated and normalised. */
export interface TargetDraft {
  /** Caller-supplied id (canonical lowercase UUID), or absent to have one generated. */
  id?: string;
  externalId: string | null;
  phoneNumber: string;
  phoneOperatingHours: WeekSchedule | null;
  fallbackPhoneNumber: string | null;
  fallbackOperatingHours: WeekSchedule | null;
  /** The recipient's IANA zone, when the caller knows it better than the number's area code. */
  timeZone: string | null;
  patient: PatientInput | null;
  preCallData: Record<string, unknown> | null;
  inputData: Record<string, unknown>;
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

export interface IgnoredTarget {
  index: number;
  externalId: string;
}

/** DECISIONS (Targets): a target's external id is `external_id ?? patient.external_id`. */
export function effectiveExternalId(
  externalId: string | null | undefined,
  patient: PatientInput | null | undefined,
) {
  return externalId ?? patient?.external_id ?? null;
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
  drafts.forEach((draft, index) => {
    const externalId = draft.externalId;
    if (externalId === null) {
      keep.push(index);
    } else if (existingExternalIds.has(externalId) || seen.has(externalId)) {
      duplicates.push({ index, externalId });
    } else {
      seen.add(externalId);
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
