import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { Tx } from '../../../common/persistence/unit-of-work.js';
import { columnList, sqlExecutor } from '../../../database/sql.js';
import {
  DoNotCallListQuery,
  DoNotCallRepository,
} from '../application/ports/do-not-call.repository.js';
import type { DoNotCallEntry, DoNotCallRemoval, NewDoNotCallEntry } from '../domain/do-not-call.js';
import { DO_NOT_CALL_COLUMNS, doNotCallFromRow, DoNotCallRow } from './do-not-call.row.js';

const COLUMN_LIST = columnList(DO_NOT_CALL_COLUMNS);

@Injectable()
export class SqlDoNotCallRepository extends DoNotCallRepository {
  constructor(private readonly dataSource: DataSource) {
    super();
  }

  async listedAmong(
    tx: Tx | null,
    organizationId: string,
    phoneNumbers: string[],
  ): Promise<Map<string, Date>> {
    if (phoneNumbers.length === 0) return new Map();
    const { rows } = await sqlExecutor(this.dataSource, tx).query<
      Pick<DoNotCallRow, 'phone_number' | 'created_at'>
    >(
      `SELECT phone_number, created_at FROM do_not_call_entries
        WHERE organization_id = $1 AND phone_number = ANY($2::text[]) AND removed_at IS NULL`,
      [organizationId, phoneNumbers],
    );
    return new Map(rows.map((r) => [r.phone_number, r.created_at]));
  }

  async add(tx: Tx | null, entries: NewDoNotCallEntry[]) {
    if (entries.length === 0) return { added: [], alreadyListed: [] };
    const input = entries.map((e, ord) => ({
      ord,
      organization_id: e.organizationId,
      phone_number: e.phoneNumber,
      reason: e.reason,
      source: e.source.type,
      campaign_id: e.source.type === 'api' ? null : e.source.campaignId,
      target_id: e.source.type === 'api' ? null : e.source.targetId,
      call_log_id: e.source.type === 'call' ? e.source.callLogId : null,
      added_by_type: e.source.type === 'api' ? e.source.addedBy.type : null,
      added_by_id: e.source.type === 'api' ? e.source.addedBy.id : null,
      added_by_name: e.source.type === 'api' ? e.source.addedBy.name : null,
      message_id: e.source.type === 'sms' ? e.source.messageId : null,
      created_at: e.createdAt.toISOString(),
    }));
    // One statement: the batch's first entry per number is inserted unless the number is listed
    // (the partial unique index); the entries that list the others are read in the same statement.
    // The caller holds the numbers' locks, so a listing that raced this one has committed and is seen.
    const { rows } = await sqlExecutor(this.dataSource, tx).query<
      DoNotCallRow & { added: boolean }
    >(
      `WITH input AS (
         SELECT * FROM jsonb_to_recordset($1::jsonb) AS e(
           ord integer, organization_id uuid, phone_number text, reason text, source text,
           campaign_id uuid, target_id uuid, call_log_id bigint, added_by_type text, added_by_id uuid,
           added_by_name text, message_id uuid,
           created_at timestamptz)
       ), firsts AS (
         SELECT DISTINCT ON (organization_id, phone_number) * FROM input
          ORDER BY organization_id, phone_number, ord
       ), inserted AS (
         INSERT INTO do_not_call_entries
           (organization_id, phone_number, reason, source, campaign_id, target_id, call_log_id,
            added_by_type, added_by_id, added_by_name, message_id, created_at)
         SELECT organization_id, phone_number, reason, source, campaign_id, target_id, call_log_id,
                added_by_type, added_by_id, added_by_name, message_id, created_at
           FROM firsts ORDER BY ord
         ON CONFLICT (organization_id, phone_number) WHERE removed_at IS NULL DO NOTHING
         RETURNING ${COLUMN_LIST}
       )
       SELECT * FROM (
         SELECT true AS added, f.ord, ${columnList(DO_NOT_CALL_COLUMNS, 'i')}
           FROM inserted i JOIN firsts f USING (organization_id, phone_number)
         UNION ALL
         SELECT false AS added, f.ord, ${columnList(DO_NOT_CALL_COLUMNS, 'd')}
           FROM firsts f
           JOIN do_not_call_entries d
             ON d.organization_id = f.organization_id AND d.phone_number = f.phone_number
            AND d.removed_at IS NULL
          WHERE NOT EXISTS (
            SELECT 1 FROM inserted i
             WHERE i.organization_id = f.organization_id AND i.phone_number = f.phone_number)
       ) AS result ORDER BY ord`,
      [JSON.stringify(input)],
    );
    return {
      added: rows.filter((r) => r.added).map(doNotCallFromRow),
      alreadyListed: rows.filter((r) => !r.added).map(doNotCallFromRow),
    };
  }

  async remove(
    tx: Tx | null,
    organizationId: string,
    phoneNumbers: string[],
    removal: DoNotCallRemoval,
  ): Promise<DoNotCallEntry[]> {
    if (phoneNumbers.length === 0) return [];
    const { rows } = await sqlExecutor(this.dataSource, tx).query<DoNotCallRow>(
      `UPDATE do_not_call_entries
          SET removed_at = $3, removal_reason = $4,
              removed_by_type = $5, removed_by_id = $6, removed_by_name = $7
        WHERE organization_id = $1 AND phone_number = ANY($2::text[]) AND removed_at IS NULL
        RETURNING ${COLUMN_LIST}`,
      [
        organizationId,
        phoneNumbers,
        removal.at,
        removal.reason,
        removal.removedBy.type,
        removal.removedBy.id,
        removal.removedBy.name,
      ],
    );
    return rows.map(doNotCallFromRow);
  }

  async list(organizationId: string, query: DoNotCallListQuery) {
    const sql = sqlExecutor(this.dataSource, null);
    const where = `organization_id = $1 AND ($2::boolean OR removed_at IS NULL)
       AND ($3::text IS NULL OR strpos(phone_number, $3::text) > 0)`;
    const filters = [organizationId, query.includeRemoved, query.digits];
    const [{ rows }, { rows: count }] = await Promise.all([
      sql.query<DoNotCallRow>(
        `SELECT ${COLUMN_LIST} FROM do_not_call_entries WHERE ${where}
          ORDER BY created_at, id OFFSET $4 LIMIT $5`,
        [...filters, query.skip, query.limit],
      ),
      sql.query<{ total: string }>(
        `SELECT count(*) AS total FROM do_not_call_entries WHERE ${where}`,
        filters,
      ),
    ]);
    return { items: rows.map(doNotCallFromRow), total: Number(count[0].total) };
  }
}
