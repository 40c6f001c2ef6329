import type { WeekSchedule } from '../../../common/schedule/week-schedule.js';
import type {
  AutoPause,
  Campaign,
  CampaignState,
  CampaignStep,
  CampaignType,
  SmsFollowUp,
} from '../domain/campaign.js';

/** A `campaigns` row as `pg` returns it. */
export interface CampaignRow {
  id: string;
  organization_id: string;
  name: string;
  type: CampaignType;
  caller_id: string | null;
  max_attempts: number;
  retry_delay_minutes: number;
  max_concurrent_calls: number;
  calling_window: WeekSchedule | null;
  steps: CampaignStep[];
  entry_step: string | null;
  blacklist_ids: string[];
  webhook_url: string | null;
  webhook_secret: string;
  provider_connection_id: string | null;
  state: CampaignState;
  state_changed_at: Date | null;
  auto_pause: AutoPause | null;
  sms_follow_up: SmsFollowUp | null;
  default_country: string | null;
  voicemail_message: string | null;
  paused_reason: string | null;
  created_at: Date;
  updated_at: Date;
}

/** Every column of `campaigns`, for `SELECT` and `RETURNING`. */
export const CAMPAIGN_COLUMNS = [
  'id',
  'organization_id',
  'name',
  'type',
  'caller_id',
  'max_attempts',
  'retry_delay_minutes',
  'max_concurrent_calls',
  'calling_window',
  'steps',
  'entry_step',
  'blacklist_ids',
  'webhook_url',
  'webhook_secret',
  'provider_connection_id',
  'state',
  'state_changed_at',
  'auto_pause',
  'sms_follow_up',
  'default_country',
  'voicemail_message',
  'paused_reason',
  'created_at',
  'updated_at',
] as const satisfies readonly (keyof CampaignRow)[];

export function campaignFromRow(r: CampaignRow): Campaign {
  return {
    id: r.id,
    organizationId: r.organization_id,
    name: r.name,
    type: r.type,
    callerId: r.caller_id,
    maxAttempts: r.max_attempts,
    retryDelayMinutes: r.retry_delay_minutes,
    maxConcurrentCalls: r.max_concurrent_calls,
    callingWindow: r.calling_window,
    steps: r.steps,
    entryStep: r.entry_step,
    blacklistIds: r.blacklist_ids,
    webhookUrl: r.webhook_url,
    webhookSecret: r.webhook_secret,
    providerConnectionId: r.provider_connection_id,
    state: r.state,
    stateChangedAt: r.state_changed_at,
    autoPause: r.auto_pause,
    smsFollowUp: r.sms_follow_up,
    defaultCountry: r.default_country,
    voicemailMessage: r.voicemail_message,
    pausedReason: r.paused_reason,
    createdAt: r.created_at,
    updatedAt: r.updated_at,
  };
}
