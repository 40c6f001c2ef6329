import type { DoNotCallEntry } from '../domain/do-not-call.js';

/** A `do_not_call_entries` row as `pg` returns it (bigints as strings). */
export interface DoNotCallRow {
  id: string;
  organization_id: string;
  phone_number: string;
  reason: string;
  source: 'call' | 'api' | 'sms';
  campaign_id: string | null;
  target_id: string | null;
  call_log_id: string | null;
  api_key_id: string | null;
  message_id: string | null;
  created_at: Date;
  removed_at: Date | null;
  removal_reason: string | null;
  removed_by_api_key_id: string | null;
}

/** Every column of `do_not_call_entries`, for `SELECT` and `RETURNING`. */
export const DO_NOT_CALL_COLUMNS = [
  'id',
  'organization_id',
  'phone_number',
  'reason',
  'source',
  'campaign_id',
  'target_id',
  'call_log_id',
  'api_key_id',
  'message_id',
  'created_at',
  'removed_at',
  'removal_reason',
  'removed_by_api_key_id',
] as const satisfies readonly (keyof DoNotCallRow)[];

/** The table's CHECK constraints make the source's and the removal's columns all set or all null. */
export function doNotCallFromRow(r: DoNotCallRow): DoNotCallEntry {
  return {
    organizationId: r.organization_id,
    phoneNumber: r.phone_number,
    reason: r.reason,
    source:
      r.source === 'call'
        ? {
            type: 'call',
            campaignId: r.campaign_id!,
            targetId: r.target_id!,
            callLogId: Number(r.call_log_id),
          }
        : r.source === 'sms'
          ? {
              type: 'sms',
              messageId: r.message_id!,
              campaignId: r.campaign_id,
              targetId: r.target_id,
            }
          : { type: 'api', apiKeyId: r.api_key_id! },
    createdAt: r.created_at,
    removal:
      r.removed_at === null
        ? null
        : { at: r.removed_at, reason: r.removal_reason!, apiKeyId: r.removed_by_api_key_id! },
  };
}
