import type { RowOf } from '../../../common/persistence/row-of.js';
import type { Campaign } from '../domain/campaign.js';

/** A `campaigns` row as `pg` returns it: the domain's fields in snake_case. */
export type CampaignRow = RowOf<Campaign>;

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
