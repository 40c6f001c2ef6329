/**
 * Inbound step data: the pure rules of the service (the SQL adapter implements the merges; the
 * in-memory fake's versions of them are in src/testing/step-rules.ts). A campaign step receives data; the data is merged into the target's input_data
 * one level deep, and a target `Waiting` at that step moves on.
 */
import type { CampaignStep } from '../../campaign/domain/campaign.js';

export type StepKind = CampaignStep['type'];

export const EHR_EVENT_TYPES = [
  'appointment_created',
  'appointment_cancelled',
  'patient_registered',
] as const;
export type EhrEventType = (typeof EHR_EVENT_TYPES)[number];

/** Where a target goes when the data it waits for arrives. */
export type MovedStatus = 'Pending' | 'Scheduled';

export function statusAfterReceive(step: Pick<CampaignStep, 'on_receive'>): MovedStatus {
  return step.on_receive === 'merge_and_schedule' ? 'Scheduled' : 'Pending';
}
