/**
 * Inbound step data: the pure rules shared by the service, the in-memory fake and (as SQL) the
 * TypeORM adapter. A campaign step receives data; the data is merged into the target's input_data
 * one level deep, and a target `Waiting` at that step moves on.
 */
import type { CampaignStep } from '../../campaign/domain/campaign';
import { mergeInput, Target } from '../../target/domain/target';

export type StepKind = CampaignStep['type'];

export const EHR_EVENT_TYPES = [
  'appointment_created',
  'appointment_cancelled',
  'patient_registered',
] as const;
export type EhrEventType = (typeof EHR_EVENT_TYPES)[number];

/** The `pre_call_ehr_ids` key of an event received without an `event_type`. */
export const UNTYPED_EHR_EVENT_KEY = 'unknown';

/** Where a target goes when the data it waits for arrives. */
export type MovedStatus = 'Pending' | 'Scheduled';

export function statusAfterReceive(step: Pick<CampaignStep, 'on_receive'>): MovedStatus {
  return step.on_receive === 'merge_and_schedule' ? 'Scheduled' : 'Pending';
}

/** Only a target parked at this very step moves on; data for any other target is merged and kept. */
export function isWaitingAt(
  target: Pick<Target, 'status' | 'currentStep'>,
  friendlyId: string,
): boolean {
  return target.status === 'Waiting' && target.currentStep === friendlyId;
}

/** The target after its step's data arrived: unchanged unless it was waiting at that step. */
export function moveOn(target: Target, step: CampaignStep, now: Date): Target {
  if (!isWaitingAt(target, step.friendly_id)) return target;
  const status = statusAfterReceive(step);
  return {
    ...target,
    status,
    currentStep: null,
    scheduledTime: status === 'Scheduled' ? now : target.scheduledTime,
    updatedAt: now,
  };
}

/**
 * Several payloads for one target (a batch naming it twice) are applied in request order: the result
 * is the same as posting them one after the other, later keys winning.
 */
export function mergeInOrder(patches: Record<string, unknown>[]): Record<string, unknown> {
  return patches.reduce((acc, patch) => mergeInput(acc, patch), {} as Record<string, unknown>);
}

export function receiveData(target: Target, patch: Record<string, unknown>, now: Date): Target {
  return { ...target, inputData: mergeInput(target.inputData, patch), updatedAt: now };
}

export function ehrEventKey(eventType: string | null | undefined): string {
  return eventType ?? UNTYPED_EHR_EVENT_KEY;
}

export function appendEhrEventId(
  ids: Record<string, string[]> | null,
  eventType: string | null | undefined,
  eventId: string,
): Record<string, string[]> {
  const key = ehrEventKey(eventType);
  const current = ids ?? {};
  return { ...current, [key]: [...(current[key] ?? []), eventId] };
}

/**
 * Target ids are UUIDs; the API accepts the forms PostgreSQL does (any case, hyphens optional) and
 * the database compares the canonical form. Anything else names no target.
 */
export function canonicalUuid(value: string): string | null {
  const hex = value.replace(/-/g, '').toLowerCase();
  if (
    !/^[0-9a-f]{32}$/.test(hex) ||
    !/^[0-9a-fA-F]{8}-?([0-9a-fA-F]{4}-?){3}[0-9a-fA-F]{12}$/.test(value)
  ) {
    return null;
  }
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}
