import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { Tx } from '../../../common/persistence/unit-of-work';
import { sqlExecutor } from '../../../database/typeorm-unit-of-work';
import { Target } from '../../target/domain/target';
import { targetFromRow } from '../../target/infrastructure/target.orm-entity';
import { TargetDecision } from '../domain/call-outcome';
import {
  AttemptResult,
  DispatchRepository,
  StartCallResult,
  TriggerClaim,
  TriggerSelection,
} from '../application/ports/dispatch.repository';

const IN_FLIGHT = `('In Progress', 'Post-processing')`;
/** Same tolerance as the service: a job may start a moment before its time. */
const DUE_TOLERANCE = `interval '2 seconds'`;

@Injectable()
export class TypeOrmDispatchRepository extends DispatchRepository {
  constructor(private readonly dataSource: DataSource) {
    super();
  }

  async claimForTrigger(
    tx: Tx,
    campaignId: string,
    selection: TriggerSelection,
    now: Date,
  ): Promise<TriggerClaim> {
    const sql = sqlExecutor(this.dataSource, tx);
    if ('count' in selection) {
      // SKIP LOCKED: concurrent triggers each take different Pending targets instead of waiting.
      const order = selection.oldestFirst ? 'created_at, id' : 'random()';
      const { rows } = await sql.query<{ id: string }>(
        // A materialized CTE runs the locking pick exactly once (an IN subquery may be re-run per row).
        `WITH picked AS MATERIALIZED (
           SELECT id FROM targets WHERE campaign_id = $1 AND status = 'Pending'
            ORDER BY ${order} LIMIT $2 FOR UPDATE SKIP LOCKED)
         UPDATE targets t SET status = 'Scheduled', scheduled_time = $3, updated_at = $3
           FROM picked WHERE t.id = picked.id
         RETURNING t.id, t.created_at`,
        [campaignId, selection.count, now],
      );
      const picked = selection.oldestFirst
        ? rows.sort((a: any, b: any) => a.created_at - b.created_at || (a.id < b.id ? -1 : 1))
        : rows;
      return { scheduled: picked.map((r) => r.id), notFound: [], notPending: [] };
    }
    if (selection.targetIds.length === 0) return { scheduled: [], notFound: [], notPending: [] };
    // Locks in id order (no deadlock between overlapping triggers); a row changed by a concurrent
    // transaction is re-checked after its commit, so a target is claimed by one trigger only.
    const { rows } = await sql.query<{ id: string; found: boolean; scheduled: boolean }>(
      `WITH claimed AS (
         UPDATE targets t SET status = 'Scheduled', scheduled_time = $3, updated_at = $3
           FROM (SELECT id FROM targets WHERE id = ANY($2::uuid[]) AND campaign_id = $1
                   AND status = 'Pending' ORDER BY id FOR UPDATE) AS locked
          WHERE t.id = locked.id
          RETURNING t.id)
       SELECT r.id::text AS id, x.id IS NOT NULL AS found, c.id IS NOT NULL AS scheduled
         FROM unnest($2::uuid[]) AS r(id)
         LEFT JOIN targets x ON x.id = r.id AND x.campaign_id = $1
         LEFT JOIN claimed c ON c.id = r.id`,
      [campaignId, selection.targetIds, now],
    );
    return {
      scheduled: rows.filter((r) => r.scheduled).map((r) => r.id),
      notFound: rows.filter((r) => !r.found).map((r) => r.id),
      notPending: rows.filter((r) => r.found && !r.scheduled).map((r) => r.id),
    };
  }

  async findTarget(targetId: string): Promise<Target | null> {
    const { rows } = await sqlExecutor(this.dataSource, null).query(
      `SELECT * FROM targets WHERE id = $1`,
      [targetId],
    );
    return rows[0] ? targetFromRow(rows[0]) : null;
  }

  async defer(tx: Tx, targetId: string, until: Date): Promise<boolean> {
    const { rows } = await sqlExecutor(this.dataSource, tx).query(
      `UPDATE targets SET scheduled_time = $2, updated_at = now() WHERE id = $1 AND status = 'Scheduled' RETURNING id`,
      [targetId, until],
    );
    return rows.length === 1;
  }

  async lockCampaignSlots(tx: Tx, campaignId: string): Promise<void> {
    // Held until commit. The UPDATE in startCall is a later statement, so in READ COMMITTED it sees
    // every start committed before this lock was granted.
    await sqlExecutor(this.dataSource, tx).query(
      `SELECT pg_advisory_xact_lock(hashtextextended('calling:' || $1::text, 0))`,
      [campaignId],
    );
  }

  async startCall(
    tx: Tx,
    target: { id: string; campaignId: string },
    maxConcurrentCalls: number,
    now: Date,
  ): Promise<StartCallResult> {
    const sql = sqlExecutor(this.dataSource, tx);
    const { rows } = await sql.query(
      `UPDATE targets SET status = 'In Progress', attempts = attempts + 1, retries = attempts,
              call_started_at = $3, last_call_date = $3, updated_at = $3
        WHERE id = $1 AND status = 'Scheduled' AND scheduled_time <= $3::timestamptz + ${DUE_TOLERANCE}
          AND (SELECT count(*) FROM targets WHERE campaign_id = $2 AND status IN ${IN_FLIGHT}) < $4
        RETURNING *`,
      [target.id, target.campaignId, now, maxConcurrentCalls],
    );
    if (rows[0]) {
      await sql.query(`DELETE FROM call_waitlist WHERE target_id = $1`, [target.id]);
      return { kind: 'started', target: targetFromRow(rows[0]) };
    }
    const { rows: still } = await sql.query(
      `SELECT 1 FROM targets WHERE id = $1 AND status = 'Scheduled' AND scheduled_time <= $2::timestamptz + ${DUE_TOLERANCE}`,
      [target.id, now],
    );
    return still.length > 0 ? { kind: 'busy' } : { kind: 'gone' };
  }

  async waitForSlot(
    tx: Tx,
    target: { id: string; campaignId: string },
    now: Date,
    until: Date,
  ): Promise<boolean> {
    const sql = sqlExecutor(this.dataSource, tx);
    if (!(await this.defer(tx, target.id, until))) return false;
    await sql.query(
      `INSERT INTO call_waitlist (target_id, campaign_id, queued_at) VALUES ($1, $2, $3) ON CONFLICT DO NOTHING`,
      [target.id, target.campaignId, now],
    );
    return true;
  }

  async wakeNextWaiting(
    tx: Tx,
    campaignId: string,
    now: Date,
  ): Promise<{ id: string; campaignId: string }[]> {
    const { rows } = await sqlExecutor(this.dataSource, tx).query<{
      id: string;
      campaign_id: string;
    }>(
      `WITH next AS MATERIALIZED (
         SELECT w.target_id FROM call_waitlist w JOIN targets t ON t.id = w.target_id AND t.status = 'Scheduled'
          WHERE w.campaign_id = $1 ORDER BY w.queued_at, w.target_id LIMIT 1 FOR UPDATE OF w SKIP LOCKED),
       woken AS (DELETE FROM call_waitlist w USING next WHERE w.target_id = next.target_id RETURNING w.target_id)
       UPDATE targets t SET scheduled_time = $2 FROM woken WHERE t.id = woken.target_id AND t.status = 'Scheduled'
       RETURNING t.id, t.campaign_id`,
      [campaignId, now],
    );
    return rows.map((r) => ({ id: r.id, campaignId: r.campaign_id }));
  }

  async pruneWaitlist(): Promise<number> {
    const { rows } = await sqlExecutor(this.dataSource, null).query(
      `DELETE FROM call_waitlist w
        WHERE NOT EXISTS (SELECT 1 FROM targets t WHERE t.id = w.target_id AND t.status = 'Scheduled')
        RETURNING w.target_id`,
    );
    return rows.length;
  }

  async attachCallLog(tx: Tx, targetId: string, callLogId: number): Promise<void> {
    await sqlExecutor(this.dataSource, tx).query(
      `UPDATE targets SET call_log_ids = array_append(coalesce(call_log_ids, '{}'), $2::bigint) WHERE id = $1`,
      [targetId, callLogId],
    );
  }

  async markPostProcessing(
    tx: Tx,
    targetId: string,
    callLogId: number,
    now: Date,
  ): Promise<boolean> {
    const { rows } = await sqlExecutor(this.dataSource, tx).query(
      `UPDATE targets SET status = 'Post-processing', updated_at = $3
        WHERE id = $1 AND status = 'In Progress' AND call_log_ids[array_upper(call_log_ids, 1)] = $2
        RETURNING id`,
      [targetId, callLogId, now],
    );
    return rows.length === 1;
  }

  async finishAttempt(tx: Tx, targetId: string, r: AttemptResult): Promise<Target | null> {
    const { rows } = await sqlExecutor(this.dataSource, tx).query(
      `UPDATE targets SET status = $3, resolution = $4, category = $5, subcategory = $6, outcome = $7,
              scheduled_time = coalesce($8, scheduled_time),
              output_data = output_data || $9::jsonb,
              execution_seconds = coalesce(execution_seconds, 0) + $10,
              categorization = $11::jsonb,
              statistics = jsonb_build_object(
                'attempts', attempts,
                'execution_seconds', coalesce(execution_seconds, 0) + $10,
                'last_call_outcome', $11::jsonb -> 'outcome',
                'last_call_log_id', $2::bigint),
              call_started_at = NULL,
              updated_at = $12
        WHERE id = $1 AND status IN ${IN_FLIGHT} AND call_log_ids[array_upper(call_log_ids, 1)] = $2
        RETURNING *`,
      [
        targetId,
        r.callLogId,
        r.status,
        r.resolution,
        r.category,
        r.subcategory,
        r.outcome,
        r.retryAt,
        JSON.stringify(r.outputData ?? {}),
        r.durationSeconds,
        JSON.stringify(r.categorization),
        r.now,
      ],
    );
    return rows[0] ? targetFromRow(rows[0]) : null;
  }

  async finishWithoutCall(
    tx: Tx,
    targetId: string,
    d: TargetDecision,
    now: Date,
  ): Promise<Target | null> {
    const { rows } = await sqlExecutor(this.dataSource, tx).query(
      `UPDATE targets SET status = $2, resolution = $3, category = $4, subcategory = $5, outcome = $6,
              categorization = jsonb_build_object('category', $4::text, 'subcategory', $5::text, 'resolution', $3::text),
              updated_at = $7
        WHERE id = $1 AND status = 'Scheduled'
        RETURNING *`,
      [targetId, d.status, d.resolution, d.category, d.subcategory, d.outcome, now],
    );
    return rows[0] ? targetFromRow(rows[0]) : null;
  }

  async rescueOverdue(
    tx: Tx,
    overdueBefore: Date,
    now: Date,
    limit: number,
  ): Promise<{ id: string; campaignId: string }[]> {
    const { rows } = await sqlExecutor(this.dataSource, tx).query<{
      id: string;
      campaign_id: string;
    }>(
      `WITH overdue AS MATERIALIZED (
         SELECT id FROM targets WHERE status = 'Scheduled' AND scheduled_time < $1
          ORDER BY scheduled_time LIMIT $3 FOR UPDATE SKIP LOCKED)
       UPDATE targets t SET scheduled_time = $2 FROM overdue WHERE t.id = overdue.id
       RETURNING t.id, t.campaign_id`,
      [overdueBefore, now, limit],
    );
    return rows.map((r) => ({ id: r.id, campaignId: r.campaign_id }));
  }
}
