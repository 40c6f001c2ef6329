import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { Tx } from '../../../common/persistence/unit-of-work';
import { SqlExecutor, sqlExecutor } from '../../../database/sql';
import {
  CampaignTargetCounts,
  CANCELLABLE_STATUSES,
  FinishedAttempt,
  StartedCall,
  TargetOutcome,
  TargetReview,
  TargetTransitions,
  TARGETS_DUE_CHANNEL,
  TriggerClaim,
  TriggerSelection,
  WaitingScope,
} from '../application/ports/target-transitions';
import { IN_FLIGHT_STATUSES, Target } from '../domain/target';
import { targetFromRow } from './target.row';

const IN_FLIGHT = `(${IN_FLIGHT_STATUSES.map((s) => `'${s}'`).join(', ')})`;

/** Delivered when the transaction commits; several in one transaction fold into one. */
export async function notifyTargetsDue(sql: SqlExecutor): Promise<void> {
  await sql.query(`SELECT pg_notify($1, '')`, [TARGETS_DUE_CHANNEL]);
}

/** The one adapter that changes a target's status: conditional, set-based SQL on `targets`. */
@Injectable()
export class SqlTargetTransitions extends TargetTransitions {
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
    let claim: TriggerClaim;
    if ('count' in selection) {
      // SKIP LOCKED: concurrent triggers each take different Pending targets instead of waiting.
      const order = selection.oldestFirst ? 'created_at, id' : 'random()';
      const { rows } = await sql.query<{ id: string; created_at: Date }>(
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
        ? rows.sort(
            (a, b) => a.created_at.getTime() - b.created_at.getTime() || (a.id < b.id ? -1 : 1),
          )
        : rows;
      claim = { scheduled: picked.map((r) => r.id), notFound: [], notPending: [] };
    } else {
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
      claim = {
        scheduled: rows.filter((r) => r.scheduled).map((r) => r.id),
        notFound: rows.filter((r) => !r.found).map((r) => r.id),
        notPending: rows.filter((r) => r.found && !r.scheduled).map((r) => r.id),
      };
    }
    if (claim.scheduled.length > 0) await notifyTargetsDue(sql);
    return claim;
  }

  async moveWaiting(
    tx: Tx,
    scope: WaitingScope,
    targetIds: string[],
    friendlyId: string,
    to: 'Pending' | 'Scheduled',
    now: Date,
  ): Promise<string[]> {
    if (targetIds.length === 0) return [];
    const sql = sqlExecutor(this.dataSource, tx);
    // The WHERE clause is the guard: a target that left `Waiting` meanwhile is not moved twice.
    const { rows } = await sql.query<{ id: string }>(
      `UPDATE targets SET
         status = $5::text,
         current_step = NULL,
         scheduled_time = CASE WHEN $5::text = 'Scheduled' THEN $6::timestamptz ELSE scheduled_time END,
         updated_at = $6::timestamptz
       WHERE id = ANY($3::uuid[]) AND organization_id = $1::uuid AND campaign_id = $2::uuid
         AND status = 'Waiting' AND current_step = $4::text
       RETURNING id`,
      [scope.organizationId, scope.campaignId, targetIds, friendlyId, to, now],
    );
    if (to === 'Scheduled' && rows.length > 0) await notifyTargetsDue(sql);
    return rows.map((r) => r.id);
  }

  async dueCampaigns(now: Date, limit: number): Promise<string[]> {
    // The partial index on scheduled_time WHERE status = 'Scheduled' serves this.
    const { rows } = await sqlExecutor(this.dataSource, null).query<{ campaign_id: string }>(
      `SELECT campaign_id FROM targets WHERE status = 'Scheduled' AND scheduled_time <= $1
        GROUP BY campaign_id ORDER BY min(scheduled_time) LIMIT $2`,
      [now, limit],
    );
    return rows.map((r) => r.campaign_id);
  }

  async nextDueAfter(now: Date): Promise<Date | null> {
    const { rows } = await sqlExecutor(this.dataSource, null).query<{ at: Date | null }>(
      `SELECT min(scheduled_time) AS at FROM targets WHERE status = 'Scheduled' AND scheduled_time > $1`,
      [now],
    );
    return rows[0]?.at ?? null;
  }

  async countInFlight(tx: Tx | null, campaignId: string): Promise<number> {
    const { rows } = await sqlExecutor(this.dataSource, tx).query<{ n: number }>(
      `SELECT count(*)::int AS n FROM targets WHERE campaign_id = $1 AND status IN ${IN_FLIGHT}`,
      [campaignId],
    );
    return rows[0].n;
  }

  async peekDue(campaignId: string, now: Date, limit: number): Promise<Target[]> {
    if (limit <= 0) return [];
    const { rows } = await sqlExecutor(this.dataSource, null).query(
      `SELECT * FROM targets WHERE campaign_id = $1 AND status = 'Scheduled' AND scheduled_time <= $2
        ORDER BY scheduled_time, id LIMIT $3`,
      [campaignId, now, limit],
    );
    return rows.map(targetFromRow);
  }

  async lockCampaigns(tx: Tx, campaignIds: string[]): Promise<void> {
    // Held until commit. Later statements of the transaction (READ COMMITTED) see every call started
    // by a claim committed before the lock was granted.
    await sqlExecutor(this.dataSource, tx).query(
      `SELECT pg_advisory_xact_lock(hashtextextended('calling:' || c, 0))
         FROM unnest($1::text[]) AS c ORDER BY c`,
      [[...new Set(campaignIds)].sort()],
    );
  }

  async lockDue(tx: Tx, targetIds: string[], now: Date): Promise<Target[]> {
    if (targetIds.length === 0) return [];
    const { rows } = await sqlExecutor(this.dataSource, tx).query(
      `SELECT * FROM targets WHERE id = ANY($1::uuid[]) AND status = 'Scheduled' AND scheduled_time <= $2
        ORDER BY scheduled_time, id FOR UPDATE SKIP LOCKED`,
      [targetIds, now],
    );
    return rows.map(targetFromRow);
  }

  async defer(tx: Tx, deferrals: { targetId: string; until: Date }[]): Promise<string[]> {
    if (deferrals.length === 0) return [];
    const { rows } = await sqlExecutor(this.dataSource, tx).query<{ id: string }>(
      `UPDATE targets t SET scheduled_time = d.until, updated_at = now()
         FROM unnest($1::uuid[], $2::timestamptz[]) AS d(id, until)
        WHERE t.id = d.id AND t.status = 'Scheduled'
        RETURNING t.id`,
      [deferrals.map((d) => d.targetId), deferrals.map((d) => d.until)],
    );
    return rows.map((r) => r.id);
  }

  async startCalls(tx: Tx, calls: StartedCall[], now: Date): Promise<Target[]> {
    if (calls.length === 0) return [];
    const { rows } = await sqlExecutor(this.dataSource, tx).query(
      `UPDATE targets t SET status = 'In Progress', attempts = t.attempts + 1, retries = t.attempts,
              call_log_ids = array_append(coalesce(t.call_log_ids, '{}'), c.call_log_id),
              call_started_at = $3, last_call_date = $3, updated_at = $3
         FROM unnest($1::uuid[], $2::bigint[]) AS c(id, call_log_id)
        WHERE t.id = c.id AND t.status = 'Scheduled'
        RETURNING t.*`,
      [calls.map((c) => c.targetId), calls.map((c) => c.callLogId), now],
    );
    return rows.map(targetFromRow);
  }

  async finishAttempt(tx: Tx, targetId: string, r: FinishedAttempt): Promise<Target | null> {
    const sql = sqlExecutor(this.dataSource, tx);
    const { rows } = await sql.query(
      `UPDATE targets SET status = $3, resolution = $4, category = $5, subcategory = $6, outcome = $7,
              scheduled_time = coalesce($8, scheduled_time),
              output_data = output_data || $9::jsonb,
              execution_seconds = coalesce(execution_seconds, 0) + $10,
              categorization = $11::jsonb,
              statistics = coalesce(statistics, '{}'::jsonb) || jsonb_build_object(
                'attempts', attempts,
                'execution_seconds', coalesce(execution_seconds, 0) + $10,
                'last_call_outcome', $11::jsonb -> 'outcome',
                'last_call_log_id', $2::bigint),
              call_started_at = NULL,
              updated_at = $12
        WHERE id = $1 AND status IN ${IN_FLIGHT} AND call_log_ids[array_upper(call_log_ids, 1)] = $2
        RETURNING *, pg_notify($13, '') AS notified`,
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
        TARGETS_DUE_CHANNEL,
      ],
    );
    // RETURNING notified (no extra round trip): a slot of the campaign is free, and a retry may be
    // the earliest due time, so the dispatchers look again.
    return rows[0] ? targetFromRow(rows[0]) : null;
  }

  async finishWithoutCall(
    tx: Tx,
    targetId: string,
    d: TargetOutcome,
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

  async cancelOpen(tx: Tx, campaignId: string, d: TargetOutcome, now: Date): Promise<Target[]> {
    const { rows } = await sqlExecutor(this.dataSource, tx).query(
      `UPDATE targets SET status = $2, resolution = $3, category = $4, subcategory = $5, outcome = $6,
              current_step = NULL,
              categorization = jsonb_build_object('category', $4::text, 'subcategory', $5::text, 'resolution', $3::text),
              updated_at = $7
        WHERE campaign_id = $1 AND status = ANY($8::text[])
        RETURNING *`,
      [
        campaignId,
        d.status,
        d.resolution,
        d.category,
        d.subcategory,
        d.outcome,
        now,
        [...CANCELLABLE_STATUSES],
      ],
    );
    return rows.map(targetFromRow);
  }

  async review(tx: Tx, r: TargetReview): Promise<Target | null> {
    const { rows } = await sqlExecutor(this.dataSource, tx).query(
      `UPDATE targets SET
              status = CASE WHEN $3::text = 'requeue' THEN 'Scheduled' ELSE 'Finished' END,
              scheduled_time = CASE WHEN $3::text = 'requeue' THEN $4::timestamptz ELSE scheduled_time END,
              statistics = coalesce(statistics, '{}'::jsonb)
                || jsonb_build_object('review', jsonb_build_object('action', $3::text, 'at', $6::text)),
              updated_at = $4::timestamptz
        WHERE id = $1 AND organization_id = $2 AND status = 'To review'
        RETURNING *, CASE WHEN $3::text = 'requeue' THEN pg_notify($5, '') END AS notified`,
      [r.targetId, r.organizationId, r.action, r.now, TARGETS_DUE_CHANNEL, r.now.toISOString()],
    );
    // RETURNING notified: a requeued target is due now, so the dispatchers look again on commit.
    return rows[0] ? targetFromRow(rows[0]) : null;
  }

  async notifyDue(tx: Tx): Promise<void> {
    await notifyTargetsDue(sqlExecutor(this.dataSource, tx));
  }

  async countCampaign(campaignId: string, now: Date): Promise<CampaignTargetCounts> {
    // One scan of the campaign's targets; GROUPING SETS gives the three breakdowns and the totals.
    const { rows } = await sqlExecutor(this.dataSource, null).query<{
      status: string | null;
      category: string | null;
      resolution: string | null;
      g: number;
      n: number;
      attempts: number;
      in_flight: number;
      due_now: number;
      due_later: number;
      next_at: Date | null;
    }>(
      `SELECT status, category, resolution, GROUPING(status, category, resolution)::int AS g,
              count(*)::int AS n, coalesce(sum(attempts), 0)::int AS attempts,
              count(*) FILTER (WHERE status IN ${IN_FLIGHT})::int AS in_flight,
              count(*) FILTER (WHERE status = 'Scheduled' AND scheduled_time <= $2)::int AS due_now,
              count(*) FILTER (WHERE status = 'Scheduled' AND scheduled_time > $2)::int AS due_later,
              min(scheduled_time) FILTER (WHERE status = 'Scheduled' AND scheduled_time > $2) AS next_at
         FROM targets WHERE campaign_id = $1
        GROUP BY GROUPING SETS ((status), (category), (resolution), ())`,
      [campaignId, now],
    );
    const counts: CampaignTargetCounts = {
      total: 0,
      byStatus: {},
      byCategory: {},
      byResolution: {},
      attempts: 0,
      inFlight: 0,
      dueNow: 0,
      dueLater: 0,
      nextScheduledAt: null,
    };
    // GROUPING bits: status 4, category 2, resolution 1 (a set bit: not grouped by that column).
    for (const r of rows) {
      if (r.g === 7) {
        Object.assign(counts, {
          total: r.n,
          attempts: r.attempts,
          inFlight: r.in_flight,
          dueNow: r.due_now,
          dueLater: r.due_later,
          nextScheduledAt: r.next_at,
        });
      } else if (r.g === 3) counts.byStatus[r.status!] = r.n;
      else if (r.g === 5 && r.category !== null) counts.byCategory[r.category] = r.n;
      else if (r.g === 6 && r.resolution !== null) counts.byResolution[r.resolution] = r.n;
    }
    return counts;
  }

  async findById(tx: Tx | null, targetId: string): Promise<Target | null> {
    const { rows } = await sqlExecutor(this.dataSource, tx).query(
      `SELECT * FROM targets WHERE id = $1`,
      [targetId],
    );
    return rows[0] ? targetFromRow(rows[0]) : null;
  }
}
