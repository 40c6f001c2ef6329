import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { NoRows, sqlExecutor } from '../../../database/sql.js';
import {
  SimulatedCall,
  SimulatedCallStore,
  SimulatedRequest,
} from '../application/ports/simulated-call.store.js';

interface SimulatedCallRow {
  id: string;
  call_log_id: string;
  due_at: Date;
  request: SimulatedRequest;
}

const fromRow = (row: SimulatedCallRow): SimulatedCall => ({
  id: row.id,
  callLogId: Number(row.call_log_id),
  dueAt: row.due_at,
  request: row.request,
});

/** `simulated_calls`, in set-based statements (one insert for calls started together). */
@Injectable()
export class SqlSimulatedCallStore extends SimulatedCallStore {
  constructor(private readonly dataSource: DataSource) {
    super();
  }

  private get sql() {
    return sqlExecutor(this.dataSource, null);
  }

  async record(calls: SimulatedCall[]): Promise<void> {
    await this.sql.query<NoRows>(
      `INSERT INTO simulated_calls (id, call_log_id, due_at, request)
       SELECT * FROM unnest($1::text[], $2::bigint[], $3::timestamptz[], $4::jsonb[])`,
      [
        calls.map((c) => c.id),
        calls.map((c) => String(c.callLogId)),
        calls.map((c) => c.dueAt),
        calls.map((c) => JSON.stringify(c.request)),
      ],
    );
  }

  async find(ref: { providerCallId: string | null; callLogId: number }) {
    const { rows } = await this.sql.query<SimulatedCallRow>(
      `SELECT id, call_log_id, due_at, request FROM simulated_calls
        WHERE id = $1 OR call_log_id = $2 LIMIT 1`,
      [ref.providerCallId, ref.callLogId],
    );
    return rows[0] ? fromRow(rows[0]) : null;
  }

  async takeDue(now: Date, retakeAt: Date, limit: number): Promise<SimulatedCall[]> {
    const { rows } = await this.sql.query<SimulatedCallRow>(
      `WITH due AS MATERIALIZED (
         SELECT id FROM simulated_calls WHERE due_at <= $1 ORDER BY due_at LIMIT $3 FOR UPDATE SKIP LOCKED)
       UPDATE simulated_calls s SET due_at = $2 FROM due WHERE s.id = due.id
       RETURNING s.id, s.call_log_id, s.due_at, s.request`,
      [now, retakeAt, limit],
    );
    return rows.map(fromRow);
  }

  async remove(ids: string[]): Promise<void> {
    if (ids.length === 0) return;
    await this.sql.query<NoRows>(`DELETE FROM simulated_calls WHERE id = ANY($1)`, [ids]);
  }

  async nextDue(): Promise<Date | null> {
    const { rows } = await this.sql.query<{ at: Date | null }>(
      `SELECT min(due_at) AS at FROM simulated_calls`,
    );
    return rows[0]?.at ?? null;
  }
}
