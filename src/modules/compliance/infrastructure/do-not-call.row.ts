import type { ChangeActor } from '../domain/change-actor.js';
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
  added_by_type: ChangeActor['type'] | null;
  added_by_id: string | null;
  added_by_name: string | null;
  message_id: string | null;
  created_at: Date;
  removed_at: Date | null;
  removal_reason: string | null;
  removed_by_type: ChangeActor['type'] | null;
  removed_by_id: string | null;
  removed_by_name: string | null;
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
  'added_by_type',
  'added_by_id',
  'added_by_name',
  'message_id',
  'created_at',
  'removed_at',
  'removal_reason',
  'removed_by_type',
  'removed_by_id',
  'removed_by_name',
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
          : {
              type: 'api',
              addedBy: { type: r.added_by_type!, id: r.added_by_id!, name: r.added_by_name! },
            },
    createdAt: r.created_at,
    removal:
      r.removed_at === null
        ? null
        : {
            at: r.removed_at,
            reason: r.removal_reason!,
            removedBy: { type: r.removed_by_type!, id: r.removed_by_id!, name: r.removed_by_name! },
          },
  };
}
