import type { WeekSchedule } from '../../../common/schedule/week-schedule.js';

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
  /** The circuit breaker (issue 12): pause when too many recent calls failed technically; null: off. */
  autoPause: AutoPause | null;
  /** A text after calls whose category is listed (docs/calling.md, Texts); null: off. */
  smsFollowUp: SmsFollowUp | null;
  /** The country its national numbers are read in; null: the organization's (its calling policy). */
  defaultCountry: string | null;
  /**
   * What is left on a voicemail box, with `{{patient.<field>}}` and `{{input_data.<field>}}`
   * placeholders; null: the provider connection's `voicemail_message` (docs/calling.md, Voicemail
   * message).
   */
  voicemailMessage: string | null;
  /** Why the campaign is paused (`state` `paused` only; null otherwise). */
  pausedReason: string | null;
  createdAt: Date;
  updatedAt: Date;
}

/**
 * The circuit breaker's setting: once at least `window` calls of the campaign have ended, the campaign
 * pauses itself when the share of technical failures among its last `window` ended calls exceeds
 * `max_failure_ratio`.
 */
export interface AutoPause {
  window: number;
  max_failure_ratio: number;
}

export const SMS_FOLLOW_UP_AFTER = ['each_attempt', 'last_attempt'] as const;

/**
 * The campaign's follow-up text: after an attempt whose category is one of `on_categories` (each
 * attempt, or only the last one: no retry follows), the target goes `SMS Scheduled` and `template`
 * (with `{{patient.<field>}}` and `{{input_data.<field>}}` placeholders) is texted through
 * `provider_connection_id` (null: the campaign's connection, else the simulator).
 */
export interface SmsFollowUp {
  provider_connection_id: string | null;
  on_categories: string[];
  template: string;
  after: (typeof SMS_FOLLOW_UP_AFTER)[number];
}

/** The call outcome the circuit breaker counts. */
export const TECHNICAL_FAILURE = 'TECHNICAL_FAILURE';

/** The last `window` ended calls of a campaign, and how many of them failed technically. */
export interface RecentFailureShare {
  ended: number;
  failures: number;
}

/**
 * Whether the breaker trips: only once `window` calls have ended (a campaign's first failure alone
 * never pauses it), and only when the share is strictly above the threshold.
 */
export function autoPauseTrips(setting: AutoPause | null, recent: RecentFailureShare): boolean {
  if (!setting || recent.ended < setting.window) return false;
  return recent.failures / recent.ended > setting.max_failure_ratio;
}

/** The `paused_reason` the breaker writes, in words. */
export function autoPauseReason(setting: AutoPause, recent: RecentFailureShare): string {
  return `auto_pause: ${recent.failures} of the last ${recent.ended} calls ended TECHNICAL_FAILURE (max_failure_ratio ${setting.max_failure_ratio})`;
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
