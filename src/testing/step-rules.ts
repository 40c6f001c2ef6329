/**
 * What the SQL of TargetStepData and of TargetTransitions.moveWaiting does, as plain functions
 * for the in-memory fakes (and their own spec). Production runs the SQL; the contract suites hold
 * the fakes to it.
 */
import type { CampaignStep } from '../modules/campaign/domain/campaign.js';
import { statusAfterReceive } from '../modules/step/domain/step.js';
import { ehrEventKey, mergeInput, Target } from '../modules/target/domain/target.js';

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
export function appendEhrEventId(
  ids: Record<string, string[]> | null,
  eventType: string | null | undefined,
  eventId: string,
): Record<string, string[]> {
  const key = ehrEventKey(eventType);
  const current = ids ?? {};
  return { ...current, [key]: [...(current[key] ?? []), eventId] };
}
