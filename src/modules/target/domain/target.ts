/**
 * A target: one unit of work for a call. Plain TypeScript: the shape and its pure rules. Field names
 * are camelCase here and snake_case on the wire (see api/target.presenter.ts).
 */
import type { WeekSchedule } from '../../../common/schedule/week-schedule.js';

export const TARGET_STATUSES = [
  'Pending',
  'Scheduled',
  'In Progress',
  'Post-processing',
  'Finished',
  'Failed',
  'Waiting',
  'SMS Scheduled',
] as const;
export type TargetStatus = (typeof TARGET_STATUSES)[number] | 'To review';

/** Accepted by the list filters and shown by the single read (spec: Enumerations). */
export const TARGET_STATUS_FILTERS = [
  'Pending',
  'Scheduled',
  'In Progress',
  'Post-processing',
  'Finished',
  'To review',
  'Failed',
  'Waiting',
  'SMS Scheduled',
] as const;

/** Statuses in which no call has been placed yet (edit guard, trigger, delete). */
export const NOT_STARTED_STATUSES: readonly TargetStatus[] = ['Pending', 'Scheduled'];
/** Targets whose next call is still to come: the ones a campaign's templates will be filled for. */
export const AWAITING_CALL_STATUSES: readonly TargetStatus[] = ['Pending', 'Waiting', 'Scheduled'];
/** A call is being made or processed: such a target is not deleted. */
export const IN_FLIGHT_STATUSES: readonly TargetStatus[] = ['In Progress', 'Post-processing'];

export interface PatientInput {
  first_name?: string | null;
  last_name?: string | null;
  date_of_birth?: string | null;
  phone_number?: string | null;
  external_id?: string | null;
  extra_data?: Record<string, unknown> | null;
}

export interface TargetHold {
  rule: string;
  reason: string;
}

export interface Target {
  id: string;
  organizationId: string;
  campaignId: string;
  externalId: string | null;
  phoneNumber: string | null;
  phoneOperatingHours: WeekSchedule | null;
  fallbackPhoneNumber: string | null;
  fallbackOperatingHours: WeekSchedule | null;
  patient: PatientInput | null;
  preCallData: Record<string, unknown> | null;
  inputData: Record<string, unknown>;
  outputData: Record<string, unknown>;
  status: TargetStatus;
  /** The step a `Waiting` target waits at. */
  currentStep: string | null;
  resolution: string | null;
  category: string | null;
  subcategory: string | null;
  outcome: string | null;
  callLogIds: number[] | null;
  lastCallDate: Date | null;
  /** Sum of call durations; the wire's execution_minutes is this rounded up. */
  executionSeconds: number | null;
  faxLinks: string[] | null;
  payorApiData: Record<string, unknown> | null;
  preCallEhrIds: Record<string, string[]> | null;
  /** Calls placed so far. */
  attempts: number;
  /** Attempts after the first (wire field). */
  retries: number | null;
  scheduledTime: Date | null;
  /** The recipient's IANA zone when one was given (else the dialled number's zones apply). */
  timeZone: string | null;
  /**
   * The calling rule holding a `Scheduled` target and its words (`quiet hours: 06:12 in ...`), set
   * by the dispatcher's deferral, cleared when a call starts; null when no rule of the organization's
   * policy holds it (its calling window's words are worked out when read).
   */
  hold: TargetHold | null;
  callStartedAt: Date | null;
  categorization: Record<string, unknown> | null;
  statistics: Record<string, unknown> | null;
  createdAt: Date;
  updatedAt: Date;
  /** When the retention purge (or an erasure) last removed parts of its data; null: never. */
  purgedAt: Date | null;
  /** The parts removed (`input_data`, `transcripts`, ...): their fields read null from then on. */
  purgedParts: string[];
}

/** Spec, States: started = a call was placed, or the status left Pending and Scheduled. */
export function hasStarted(target: Pick<Target, 'status' | 'attempts' | 'callLogIds'>): boolean {
  return (
    target.attempts > 0 ||
    (target.callLogIds?.length ?? 0) > 0 ||
    !NOT_STARTED_STATUSES.includes(target.status)
  );
}

/** Shallow merge: keys present are set (nested objects replaced, not deep-merged), others kept. */
export function mergeInput(
  current: Record<string, unknown>,
  patch: Record<string, unknown>,
): Record<string, unknown> {
  return { ...current, ...patch };
}

export function executionMinutes(seconds: number | null): number | null {
  return seconds === null ? null : Math.ceil(seconds / 60);
}

/** The `pre_call_ehr_ids` key of an event received without an `event_type`. */
export const UNTYPED_EHR_EVENT_KEY = 'unknown';

/** The `pre_call_ehr_ids` key under which an EHR event's id is kept. */
export function ehrEventKey(eventType: string | null | undefined): string {
  return eventType ?? UNTYPED_EHR_EVENT_KEY;
}
