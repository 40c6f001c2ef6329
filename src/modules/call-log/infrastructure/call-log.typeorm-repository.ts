import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { Tx } from '../../../common/persistence/unit-of-work';
import { sqlExecutor } from '../../../database/typeorm-unit-of-work';
import { CallLog, CallLogCompletion, NewCallLog } from '../domain/call-log';
import {
  CallLogFilter,
  CallLogRepository,
  RecoverableCall,
} from '../application/ports/call-log.repository';

function fromRow(r: Record<string, any>): CallLog {
  return {
    id: Number(r.id),
    organizationId: r.organization_id,
    campaignId: r.campaign_id,
    targetId: r.target_id,
    attempt: r.attempt,
    to: r.to_number,
    from: r.from_number,
    provider: r.provider,
    providerCallId: r.provider_call_id,
    outcome: r.outcome,
    endedReason: r.ended_reason,
    callCategorization: r.call_categorization,
    agentData: r.agent_data,
    postCallData: r.post_call_data,
    qa: r.qa,
    transcripts: r.transcripts,
    recordingUrls: r.recording_urls ?? [],
    outputData: r.output_data ?? null,
    subcategory: r.subcategory ?? null,
    startedAt: r.started_at,
    endedAt: r.ended_at,
    durationSeconds: r.duration_seconds,
    leaseExpiresAt: r.lease_expires_at,
    createdAt: r.created_at,
  };
}

const json = (v: unknown) => (v === null || v === undefined ? null : JSON.stringify(v));

@Injectable()
export class TypeOrmCallLogRepository extends CallLogRepository {
  constructor(private readonly dataSource: DataSource) {
    super();
  }

  async create(tx: Tx, log: NewCallLog): Promise<number> {
    const { rows } = await sqlExecutor(this.dataSource, tx).query<{ id: string }>(
      `INSERT INTO call_logs (organization_id, campaign_id, target_id, attempt, to_number, from_number, provider,
                              started_at, lease_expires_at, created_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $8) RETURNING id`,
      [
        log.organizationId,
        log.campaignId,
        log.targetId,
        log.attempt,
        log.to,
        log.from,
        log.provider,
        log.startedAt,
        log.leaseExpiresAt,
      ],
    );
    return Number(rows[0].id);
  }

  async complete(tx: Tx, id: number, c: CallLogCompletion): Promise<boolean> {
    const { rows } = await sqlExecutor(this.dataSource, tx).query(
      `UPDATE call_logs SET outcome = $2, ended_reason = $3, provider_call_id = $4, call_categorization = $5,
              agent_data = $6, post_call_data = $7, qa = $8, transcripts = $9, recording_urls = $10,
              ended_at = $11, duration_seconds = $12, output_data = $13, subcategory = $14
        WHERE id = $1 AND ended_at IS NULL RETURNING id`,
      [
        id,
        c.outcome,
        c.endedReason,
        c.providerCallId,
        json(c.callCategorization),
        json(c.agentData),
        json(c.postCallData),
        json(c.qa),
        json(c.transcripts),
        c.recordingUrls,
        c.endedAt,
        c.durationSeconds,
        json(c.outputData),
        c.subcategory,
      ],
    );
    return rows.length === 1;
  }

  async renewLease(id: number, until: Date): Promise<boolean> {
    const { rows } = await sqlExecutor(this.dataSource, null).query(
      `UPDATE call_logs SET lease_expires_at = $2 WHERE id = $1 AND lease_expires_at IS NOT NULL RETURNING id`,
      [id, until],
    );
    return rows.length === 1;
  }

  async releaseLease(tx: Tx, id: number): Promise<void> {
    await sqlExecutor(this.dataSource, tx).query(
      `UPDATE call_logs SET lease_expires_at = NULL WHERE id = $1`,
      [id],
    );
  }

  async findRecoverable(now: Date, startedBefore: Date, limit: number): Promise<RecoverableCall[]> {
    const { rows } = await sqlExecutor(this.dataSource, null).query<{
      id: string;
      target_id: string;
    }>(
      `SELECT id, target_id FROM call_logs WHERE lease_expires_at < $1
       UNION
       SELECT id, target_id FROM call_logs WHERE ended_at IS NULL AND started_at < $2 AND lease_expires_at IS NOT NULL
       ORDER BY id LIMIT $3`,
      [now, startedBefore, limit],
    );
    return rows.map((r) => ({ callLogId: Number(r.id), targetId: r.target_id }));
  }

  async findById(id: number): Promise<CallLog | null> {
    if (!Number.isSafeInteger(id) || id < 0) return null;
    const { rows } = await sqlExecutor(this.dataSource, null).query(
      `SELECT * FROM call_logs WHERE id = $1`,
      [id],
    );
    return rows[0] ? fromRow(rows[0]) : null;
  }

  async list(
    filter: CallLogFilter,
    offset: number,
    limit: number,
  ): Promise<{ items: CallLog[]; total: number }> {
    const params: unknown[] = [filter.organizationId];
    const where = ['organization_id = $1'];
    if (filter.campaignId) where.push(`campaign_id = $${params.push(filter.campaignId)}`);
    if (filter.from) where.push(`created_at >= $${params.push(filter.from)}`);
    // Inclusive to the millisecond: a date-only bound ends at .999 and rows carry microseconds.
    if (filter.to)
      where.push(`created_at < $${params.push(filter.to)}::timestamptz + interval '1 millisecond'`);
    const sql = sqlExecutor(this.dataSource, null);
    const condition = where.join(' AND ');
    const [{ rows: count }, { rows }] = await Promise.all([
      sql.query<{ total: string }>(
        `SELECT count(*) AS total FROM call_logs WHERE ${condition}`,
        params,
      ),
      sql.query(
        `SELECT * FROM call_logs WHERE ${condition} ORDER BY id LIMIT $${params.length + 1} OFFSET $${params.length + 2}`,
        [...params, limit, offset],
      ),
    ]);
    return { items: rows.map(fromRow), total: Number(count[0].total) };
  }
}
