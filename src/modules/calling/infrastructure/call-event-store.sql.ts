import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { Tx } from '../../../common/persistence/unit-of-work.js';
import { sqlExecutor } from '../../../database/sql.js';
import { CallEventStore, ReceivedCallEvent } from '../application/ports/call-event.store.js';

@Injectable()
export class SqlCallEventStore extends CallEventStore {
  constructor(private readonly dataSource: DataSource) {
    super();
  }

  async storeNew(tx: Tx, connection: string, events: ReceivedCallEvent[]): Promise<Set<string>> {
    if (events.length === 0) return new Set();
    // A key twice in one batch: the first is stored (ON CONFLICT cannot see rows of its own statement).
    const firsts = new Map<string, ReceivedCallEvent>();
    for (const e of events) if (!firsts.has(e.key)) firsts.set(e.key, e);
    const unique = [...firsts.values()];
    const { rows } = await sqlExecutor(this.dataSource, tx).query<{ key: string }>(
      `INSERT INTO call_events (connection, key, kind, call_log_id, provider_call_id, occurred_at)
       SELECT $1, e.key, e.kind, e.call_log_id, e.provider_call_id, e.occurred_at
         FROM unnest($2::text[], $3::text[], $4::bigint[], $5::text[], $6::timestamptz[])
              AS e(key, kind, call_log_id, provider_call_id, occurred_at)
       ON CONFLICT (connection, key) DO NOTHING
       RETURNING key`,
      [
        connection,
        unique.map((e) => e.key),
        unique.map((e) => e.kind),
        unique.map((e) => e.callLogId),
        unique.map((e) => e.providerCallId),
        unique.map((e) => e.at),
      ],
    );
    return new Set(rows.map((r) => r.key));
  }
}
