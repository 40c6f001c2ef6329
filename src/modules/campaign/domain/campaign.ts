import type { WeekSchedule } from '../../../common/schedule/week-schedule';

/** The campaign type picks which category enum its targets' outcomes use. */
export const CAMPAIGN_TYPES = [
  'payor',
  'patient',
  'provider',
  'patient_incoming',
  'patient_incoming_scheduling',
  'patient_outgoing_scheduling',
  'patient_billing',
] as const;
export type CampaignType = (typeof CAMPAIGN_TYPES)[number];

export const STEP_TYPES = ['webhook', 'ehr_event'] as const;
export const STEP_ON_RECEIVE = ['merge', 'merge_and_schedule'] as const;

export interface CampaignStep {
  friendly_id: string;
  type: (typeof STEP_TYPES)[number];
  on_receive: (typeof STEP_ON_RECEIVE)[number];
}

export interface Campaign {
  id: string;
  organizationId: string;
  name: string;
  type: CampaignType;
  callerId: string | null;
  maxAttempts: number;
  retryDelayMinutes: number;
  maxConcurrentCalls: number;
  callingWindow: WeekSchedule | null;
  steps: CampaignStep[];
  entryStep: string | null;
  blacklistIds: string[];
  webhookUrl: string | null;
  /** `whsec_...`, signs the campaign's webhook notifications (Standard Webhooks). */
  webhookSecret: string;
  /** Places its calls; null: the organization's default connection, else the process-wide provider. */
  providerConnectionId: string | null;
  /** `active` (calls are placed), `paused` (none start; resumable) or `cancelled` (final). */
  state: CampaignState;
  /** When `state` last changed (null: never). */
  stateChangedAt: Date | null;
  createdAt: Date;
  updatedAt: Date;
}

export const CAMPAIGN_STATES = ['active', 'paused', 'cancelled'] as const;
export type CampaignState = (typeof CAMPAIGN_STATES)[number];
export type CampaignAction = 'pause' | 'resume' | 'cancel';

/**
 * What an action does to a campaign in `from` (issue 12): the new state, `unchanged` when it is there
 * already (idempotent: the same 200), or `conflict` (a cancelled campaign is never resumed or paused).
 */
export function applyAction(
  from: CampaignState,
  action: CampaignAction,
): { kind: 'changed'; to: CampaignState } | { kind: 'unchanged' } | { kind: 'conflict' } {
  const to: CampaignState =
    action === 'pause' ? 'paused' : action === 'resume' ? 'active' : 'cancelled';
  if (from === to) return { kind: 'unchanged' };
  if (from === 'cancelled') return { kind: 'conflict' };
  return { kind: 'changed', to };
}

export const CAMPAIGN_DEFAULTS = {
  maxAttempts: 3,
  retryDelayMinutes: 60,
  maxConcurrentCalls: 10,
} as const;

export function findStep(
  campaign: Pick<Campaign, 'steps'>,
  friendlyId: string,
): CampaignStep | null {
  return campaign.steps.find((s) => s.friendly_id === friendlyId) ?? null;
}
