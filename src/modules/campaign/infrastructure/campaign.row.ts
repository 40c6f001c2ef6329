import { rowMapper, type RowOf } from '../../../common/persistence/row-of.js';
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

export const campaignFromRow = rowMapper<Campaign>()(CAMPAIGN_COLUMNS);
