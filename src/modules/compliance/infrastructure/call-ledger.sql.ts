import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { Tx } from '../../../common/persistence/unit-of-work.js';
import { NoRows, sqlExecutor } from '../../../database/sql.js';
import { CallLedger, type PlacedCall } from '../application/ports/call-ledger.js';

/** `compliance_call_ledger`: read and written by its primary key (organization, number, time). */
@Injectable()
export class SqlCallLedger extends CallLedger {
  constructor(private readonly dataSource: DataSource) {
    super();
  }

  async recentCalls(
    tx: Tx,
    organizationId: string,
    phoneNumbers: string[],
    since: Date,
  ): Promise<Map<string, Date[]>> {
    const { rows } = await sqlExecutor(this.dataSource, tx).query<{
      phone_number: string;
      placed: Date[];
    }>(
      `SELECT phone_number, array_agg(placed_at ORDER BY placed_at) AS placed
         FROM compliance_call_ledger
        WHERE organization_id = $1 AND phone_number = ANY($2::text[]) AND placed_at >= $3
        GROUP BY phone_number`,
      [organizationId, [...new Set(phoneNumbers)], since],
    );
    return new Map(rows.map((r) => [r.phone_number, r.placed.map((d) => new Date(d))]));
  }

  async record(
    tx: Tx,
    organizationId: string,
    calls: PlacedCall[],
    forgetBefore: Date,
  ): Promise<void> {
    if (calls.length === 0) return;
    // The numbers' rows no cap can count any more go in the same statement: the ledger holds about a
    // week of each number that is still being called.
    await sqlExecutor(this.dataSource, tx).query<NoRows>(
      `WITH forgotten AS (
         DELETE FROM compliance_call_ledger
          WHERE organization_id = $1 AND phone_number = ANY($2::text[]) AND placed_at < $5
       )
       INSERT INTO compliance_call_ledger (organization_id, phone_number, placed_at, call_log_id)
       SELECT $1, n, t, c FROM unnest($2::text[], $3::timestamptz[], $4::bigint[]) AS u(n, t, c)`,
      [
        organizationId,
        calls.map((c) => c.phoneNumber),
        calls.map((c) => c.placedAt),
        calls.map((c) => c.callLogId),
        forgetBefore,
      ],
    );
  }
}
