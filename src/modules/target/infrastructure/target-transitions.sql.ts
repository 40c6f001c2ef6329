import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { Tx } from '../../../common/persistence/unit-of-work.js';
import { columnList, NoRows, SqlExecutor, sqlExecutor } from '../../../database/sql.js';
import { TypeOrmTx } from '../../../database/typeorm-unit-of-work.js';
import {
  CampaignTargetCounts,
  Deferral,
  StartedCall,
  TargetAttempt,
  TargetOutcome,
  TextContinuation,
  TargetReview,
  TargetTransitions,
  TARGETS_DUE_CHANNEL,
  TriggerClaim,
  TriggerSelection,
  WaitingScope,
} from '../application/ports/target-transitions.js';
import { IN_FLIGHT_STATUSES, Target, TargetStatus } from '../domain/target.js';
import { statusGuardSql } from '../domain/target-lifecycle.js';
import { TargetEventLog } from '../application/ports/target-event-log.js';
import { TARGET_COLUMNS, targetFromRow, TargetRow } from './target.row.js';

const COLUMNS = columnList(TARGET_COLUMNS);
const T_COLUMNS = columnList(TARGET_COLUMNS, 't');
const IN_FLIGHT = `(${IN_FLIGHT_STATUSES.map((s) => `'${s}'`).join(', ')})`;

/** Delivered when the transaction commits; several in one transaction fold into one. */
export async function notifyTargetsDue(sql: SqlExecutor): Promise<void> {
  await sql.query<NoRows>(`SELECT pg_notify($1, '')`, [TARGETS_DUE_CHANNEL]);
}

/**
 * The one adapter that changes a target's status: conditional, set-based SQL on `targets`, each
 * statement guarded by its event's statuses as target-lifecycle.ts declares them (`statusGuardSql`).
 * Each change goes through `TargetEventLog.relay`, so the listeners hear of the events it records.
 */
@Injectable()
export class SqlTargetTransitions extends TargetTransitions {
  constructor(
    private readonly dataSource: DataSource,
    private readonly events: TargetEventLog,
  ) {
    super();
  }

  /** Runs a statement that changes targets and returns them, relaying the events it records. */
  private changeTargets(tx: Tx, statement: string, params: unknown[]): Promise<Target[]> {
    return this.events.relay(tx, async () => {
      const { rows } = await sqlExecutor(this.dataSource, tx).query<TargetRow>(statement, params);
      return rows.map(targetFromRow);
    });
  }

  async claimForTrigger(
    tx: Tx,
    campaignId: string,
    selection: TriggerSelection,
    now: Date,
  ): Promise<TriggerClaim> {
    return this.events.relay(tx, async () => {
      const sql = sqlExecutor(this.dataSource, tx);
      let claim: TriggerClaim;
      if ('count' in selection) {
        // SKIP LOCKED: concurrent triggers each take different Pending targets instead of waiting.
        const order = selection.oldestFirst ? 'created_at, id' : 'random()';
        const { rows } = await sql.query<{ id: string }>(
          // A materialized CTE runs the locking pick exactly once (an IN subquery may be re-run per row).
          // The update finds each picked row by its whole primary key (id, organization_id) and
          // nothing else: with `t.campaign_id = $1` beside `t.id`, statistics taken before a bulk add
          // let the planner walk the campaign's index once per row (6 s for 10,000).
          // The answer is ordered by the timestamps PostgreSQL stores (microseconds): ordered in
          // JavaScript, two targets created within one millisecond would fall back to id order.
          `WITH picked AS MATERIALIZED (
             SELECT id, organization_id FROM targets WHERE campaign_id = $1 AND ${statusGuardSql('trigger')}
              ORDER BY ${order} LIMIT $2 FOR UPDATE SKIP LOCKED),
           claimed AS (
             UPDATE targets t SET status = 'Scheduled', scheduled_time = $3, updated_at = $3
               FROM picked WHERE t.id = picked.id AND t.organization_id = picked.organization_id
             RETURNING t.id, t.created_at)
           SELECT id::text AS id FROM claimed ORDER BY created_at, id`,
          [campaignId, selection.count, now],
        );
        claim = { scheduled: rows.map((r) => r.id), notFound: [], notPending: [] };
      } else {
        if (selection.targetIds.length === 0)
          return { scheduled: [], notFound: [], notPending: [] };
        // Locks in id order (no deadlock between overlapping triggers); a row changed by a concurrent
        // transaction is re-checked after its commit, so a target is claimed by one trigger only.
        const { rows } = await sql.query<{ id: string; found: boolean; scheduled: boolean }>(
          // Rows are found by the whole primary key (the campaign's organization and the id); the
          // campaign is checked on the rows found, not used to find them (see the count case above).
          `WITH owner AS MATERIALIZED (SELECT organization_id FROM campaigns WHERE id = $1),
           claimed AS (
             UPDATE targets t SET status = 'Scheduled', scheduled_time = $3, updated_at = $3
               FROM (SELECT l.id, l.organization_id FROM targets l, owner o
                      WHERE l.id = ANY($2::uuid[]) AND l.organization_id = o.organization_id
                        AND l.campaign_id = $1 AND ${statusGuardSql('trigger', 'l')}
                      ORDER BY l.id FOR UPDATE OF l) AS locked
              WHERE t.id = locked.id AND t.organization_id = locked.organization_id
              RETURNING t.id)
           SELECT r.id::text AS id, coalesce(x.campaign_id = $1, false) AS found,
                  c.id IS NOT NULL AS scheduled
             FROM unnest($2::uuid[]) AS r(id)
             LEFT JOIN owner o ON true
             LEFT JOIN targets x ON x.id = r.id AND x.organization_id = o.organization_id
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
    });
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
    return this.events.relay(tx, async () => {
      const sql = sqlExecutor(this.dataSource, tx);
      // The WHERE clause is the guard: a target that left `Waiting` meanwhile is not moved twice.
      const { rows } = await sql.query<{ id: string }>(
        `UPDATE targets SET
           status = $5::text,
           current_step = NULL,
           scheduled_time = CASE WHEN $5::text = 'Scheduled' THEN $6::timestamptz ELSE scheduled_time END,
           updated_at = $6::timestamptz
         WHERE id = ANY($3::uuid[]) AND organization_id = $1::uuid AND campaign_id = $2::uuid
           AND ${statusGuardSql('moveWaiting')} AND current_step = $4::text
         RETURNING id`,
        [scope.organizationId, scope.campaignId, targetIds, friendlyId, to, now],
      );
      if (to === 'Scheduled' && rows.length > 0) await notifyTargetsDue(sql);
      return rows.map((r) => r.id);
    });
  }

  async dueCampaigns(now: Date, limit: number, excluding: readonly string[]): Promise<string[]> {
    // A skip scan of targets_campaign_due_idx (campaign_id, scheduled_time) WHERE status = 'Scheduled':
    // one probe per campaign with Scheduled targets for the next campaign id, one for its earliest
    // time. Its cost follows the number of campaigns, not of due targets (a paused campaign's backlog
    // of a million due targets costs two probes, and it is left out).
    const { rows } = await sqlExecutor(this.dataSource, null).query<{ campaign_id: string }>(
      `WITH RECURSIVE campaigns_scheduled AS (
         (SELECT campaign_id FROM targets WHERE status = 'Scheduled' ORDER BY campaign_id LIMIT 1)
         UNION ALL
         SELECT (SELECT t.campaign_id FROM targets t
                  WHERE t.status = 'Scheduled' AND t.campaign_id > c.campaign_id
                  ORDER BY t.campaign_id LIMIT 1)
           FROM campaigns_scheduled c WHERE c.campaign_id IS NOT NULL)
       SELECT c.campaign_id FROM campaigns_scheduled c
       CROSS JOIN LATERAL (
         SELECT t.scheduled_time AS first_due FROM targets t
          WHERE t.status = 'Scheduled' AND t.campaign_id = c.campaign_id
          ORDER BY t.scheduled_time LIMIT 1) d
        WHERE c.campaign_id IS NOT NULL AND d.first_due <= $1
          AND NOT (c.campaign_id = ANY($3::uuid[]))
        ORDER BY d.first_due LIMIT $2`,
      [now, limit, [...excluding]],
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
    const { rows } = await sqlExecutor(this.dataSource, null).query<TargetRow>(
      `SELECT ${COLUMNS} FROM targets WHERE campaign_id = $1 AND status = 'Scheduled' AND scheduled_time <= $2
        ORDER BY scheduled_time, id LIMIT $3`,
      [campaignId, now, limit],
    );
    return rows.map(targetFromRow);
  }

  async lockCampaigns(tx: Tx, campaignIds: string[]): Promise<void> {
    // Held until commit. Later statements of the transaction (READ COMMITTED) see every call started
    // by a claim committed before the lock was granted.
    await sqlExecutor(this.dataSource, tx).query<NoRows>(
      `SELECT pg_advisory_xact_lock(hashtextextended('calling:' || c, 0))
         FROM unnest($1::text[]) AS c ORDER BY c`,
      [[...new Set(campaignIds)].sort()],
    );
  }

  async lockDue(tx: Tx, organizationId: string, targetIds: string[], now: Date): Promise<Target[]> {
    if (targetIds.length === 0) return [];
    const { rows } = await sqlExecutor(this.dataSource, tx).query<TargetRow>(
      `SELECT ${COLUMNS} FROM targets WHERE id = ANY($1::uuid[]) AND organization_id = $3
          AND status = 'Scheduled' AND scheduled_time <= $2
        ORDER BY scheduled_time, id FOR UPDATE SKIP LOCKED`,
      [targetIds, now, organizationId],
    );
    return rows.map(targetFromRow);
  }

  async defer(tx: Tx, organizationId: string, deferrals: Deferral[], now: Date): Promise<string[]> {
    if (deferrals.length === 0) return [];
    return this.events.relay(tx, async () => {
      const { rows } = await sqlExecutor(this.dataSource, tx).query<{ id: string }>(
        `UPDATE targets t SET scheduled_time = d.until, hold_rule = d.rule, hold_reason = d.reason,
                updated_at = $6
           FROM unnest($1::uuid[], $2::timestamptz[], $3::uuid[], $4::text[], $5::text[])
                AS d(id, until, organization_id, rule, reason)
          WHERE t.id = d.id AND t.organization_id = d.organization_id AND ${statusGuardSql('defer', 't')}
          RETURNING t.id`,
        [
          deferrals.map((d) => d.targetId),
          deferrals.map((d) => d.until),
          deferrals.map(() => organizationId),
          deferrals.map((d) => d.hold?.rule ?? null),
          deferrals.map((d) => d.hold?.reason ?? null),
          now,
        ],
      );
      return rows.map((r) => r.id);
    });
  }

  // The organization goes in as one more column of the row set, not as `t.organization_id = $n`: a
  // constant filter on `targets` made the planner (with statistics from before a bulk trigger, when
  // few targets were Scheduled) expect one Scheduled row and scan the whole due index once per call,
  // 200 ms a 50-call round instead of 5. As a join key, each call finds its row by the primary key.
  async startCalls(
    tx: Tx,
    organizationId: string,
    calls: StartedCall[],
    now: Date,
  ): Promise<Target[]> {
    if (calls.length === 0) return [];
    return this.changeTargets(
      tx,
      `UPDATE targets t SET status = 'In Progress', attempts = t.attempts + 1, retries = t.attempts,
                call_log_ids = array_append(coalesce(t.call_log_ids, '{}'), c.call_log_id),
                call_started_at = $3, last_call_date = $3, updated_at = $3,
                hold_rule = NULL, hold_reason = NULL
           FROM unnest($1::uuid[], $2::bigint[], $4::uuid[]) AS c(id, call_log_id, organization_id)
          WHERE t.id = c.id AND t.organization_id = c.organization_id AND ${statusGuardSql('startCall', 't')}
          RETURNING ${T_COLUMNS}`,
      [
        calls.map((c) => c.targetId),
        calls.map((c) => c.callLogId),
        now,
        calls.map(() => organizationId),
      ],
    );
  }

  async finishAttempts(tx: Tx, attempts: TargetAttempt[]): Promise<Target[]> {
    if (attempts.length === 0) return [];
    // The first entry of a (target, call) wins (UPDATE ... FROM would pick any of two joined rows).
    const firsts = new Map<string, TargetAttempt>();
    for (const a of attempts) {
      const key = `${a.organizationId}:${a.targetId}:${a.callLogId}`;
      if (!firsts.has(key)) firsts.set(key, a);
    }
    // RETURNING notified (no extra round trip; one notification per transaction reaches listeners):
    // a slot of the campaign is free, and a retry may be the earliest due time, so the dispatchers
    // look again.
    return this.changeTargets(
      tx,
      `UPDATE targets t SET status = e.status, resolution = e.resolution, category = e.category,
                subcategory = e.subcategory, outcome = e.outcome,
                scheduled_time = coalesce(e.retry_at, t.scheduled_time),
                output_data = t.output_data || e.output_data,
                execution_seconds = coalesce(t.execution_seconds, 0) + e.duration_seconds,
                categorization = e.categorization,
                statistics = coalesce(t.statistics, '{}'::jsonb) || jsonb_build_object(
                  'attempts', t.attempts,
                  'execution_seconds', coalesce(t.execution_seconds, 0) + e.duration_seconds,
                  'last_call_outcome', e.categorization -> 'outcome',
                  'last_call_log_id', e.call_log_id),
                call_started_at = NULL,
                updated_at = e.now
           FROM jsonb_to_recordset($1::jsonb) AS e(organization_id uuid, target_id uuid, call_log_id bigint, status text,
                resolution text, category text, subcategory text, outcome text, retry_at timestamptz,
                output_data jsonb, duration_seconds integer, categorization jsonb, now timestamptz)
          WHERE t.id = e.target_id AND t.organization_id = e.organization_id AND ${statusGuardSql('finishAttempt', 't')}
            AND t.call_log_ids[array_upper(t.call_log_ids, 1)] = e.call_log_id
          RETURNING ${T_COLUMNS}, pg_notify($2, '') AS notified`,
      [
        outcomeRecords([...firsts.values()], (a) => ({
          call_log_id: a.callLogId,
          output_data: a.outputData ?? {},
          duration_seconds: a.durationSeconds,
          categorization: a.categorization,
        })),
        TARGETS_DUE_CHANNEL,
      ],
    );
  }

  async continueAfterTexts(tx: Tx, continuations: TextContinuation[]): Promise<Target[]> {
    if (continuations.length === 0) return [];
    return this.changeTargets(
      tx,
      `UPDATE targets t SET status = e.status, resolution = e.resolution, category = e.category,
                subcategory = e.subcategory, outcome = e.outcome,
                scheduled_time = coalesce(e.retry_at, t.scheduled_time), updated_at = e.now
           FROM jsonb_to_recordset($1::jsonb) AS e(organization_id uuid, target_id uuid, status text,
                resolution text, category text, subcategory text, outcome text, retry_at timestamptz,
                now timestamptz)
          WHERE t.id = e.target_id AND t.organization_id = e.organization_id AND ${statusGuardSql('continueAfterText', 't')}
          RETURNING ${T_COLUMNS}, CASE WHEN e.status = 'Scheduled' THEN pg_notify($2, '') END AS notified`,
      [outcomeRecords(continuations), TARGETS_DUE_CHANNEL],
    );
  }

  async finishWithoutCall(
    tx: Tx,
    organizationId: string,
    targetId: string,
    d: TargetOutcome,
    now: Date,
  ): Promise<Target | null> {
    const [finished] = await this.changeTargets(
      tx,
      `UPDATE targets SET status = $2, resolution = $3, category = $4, subcategory = $5, outcome = $6,
                categorization = jsonb_build_object('category', $4::text, 'subcategory', $5::text, 'resolution', $3::text),
                updated_at = $7
          WHERE id = $1 AND organization_id = $8 AND ${statusGuardSql('finishWithoutCall')}
          RETURNING *`,
      [targetId, d.status, d.resolution, d.category, d.subcategory, d.outcome, now, organizationId],
    );
    return finished ?? null;
  }

  async cancelOpen(tx: Tx, campaignId: string, d: TargetOutcome, now: Date): Promise<Target[]> {
    return this.changeTargets(
      tx,
      `UPDATE targets SET status = $2, resolution = $3, category = $4, subcategory = $5, outcome = $6,
                current_step = NULL,
                categorization = jsonb_build_object('category', $4::text, 'subcategory', $5::text, 'resolution', $3::text),
                updated_at = $7
          WHERE campaign_id = $1 AND ${statusGuardSql('cancel')}
          RETURNING ${COLUMNS}`,
      [campaignId, d.status, d.resolution, d.category, d.subcategory, d.outcome, now],
    );
  }

  async review(tx: Tx, r: TargetReview): Promise<Target | null> {
    // RETURNING notified: a requeued target is due now, so the dispatchers look again on commit.
    const [reviewed] = await this.changeTargets(
      tx,
      `UPDATE targets SET
                status = CASE WHEN $3::text = 'requeue' THEN 'Scheduled' ELSE 'Finished' END,
                scheduled_time = CASE WHEN $3::text = 'requeue' THEN $4::timestamptz ELSE scheduled_time END,
                statistics = coalesce(statistics, '{}'::jsonb)
                  || jsonb_build_object('review', jsonb_build_object('action', $3::text, 'at', $6::text)),
                updated_at = $4::timestamptz
          WHERE id = $1 AND organization_id = $2 AND ${statusGuardSql('review')}
          RETURNING ${COLUMNS}, CASE WHEN $3::text = 'requeue' THEN pg_notify($5, '') END AS notified`,
      [r.targetId, r.organizationId, r.action, r.now, TARGETS_DUE_CHANNEL, r.now.toISOString()],
    );
    return reviewed ?? null;
  }

  async notifyDue(tx: Tx): Promise<void> {
    await notifyTargetsDue(sqlExecutor(this.dataSource, tx));
  }

  async countCampaign(campaignId: string, now: Date): Promise<CampaignTargetCounts> {
    const thisMinute = new Date(Math.floor(now.getTime() / 60_000) * 60_000);
    // One snapshot for the counters and the two index reads, so they add up. Read only: the folding
    // job (target-count-folding.ts) folds the counter rows.
    return this.dataSource.transaction('REPEATABLE READ', async (manager) => {
      const sql = sqlExecutor(this.dataSource, { manager } as TypeOrmTx);
      // Counter rows summed in SQL to one row per (status, category, resolution, before or from
      // this minute): a few dozen rows, however many minutes targets are scheduled over.
      const { rows: groups } = await sql.query<CountGroupRow>(
        `SELECT status, category, resolution,
                  CASE WHEN due_minute < $2 THEN 'before' WHEN due_minute >= $2 THEN 'from' END AS due,
                  sum(delta) AS n
             FROM target_count_deltas WHERE campaign_id = $1
            GROUP BY 1, 2, 3, 4`,
        [campaignId, thisMinute],
      );
      // Only the current minute's Scheduled targets are split at `now` by reading the index.
      // Held targets are few (the index holds only targets a rule deferred): counted from it.
      const { rows: edges } = await sql.query<CountEdgesRow>(
        `SELECT (SELECT count(*)::int FROM targets WHERE campaign_id = $1 AND status = 'Scheduled'
                      AND scheduled_time >= $2 AND scheduled_time <= $3) AS due_this_minute,
                  (SELECT min(scheduled_time) FROM targets WHERE campaign_id = $1 AND status = 'Scheduled'
                      AND scheduled_time > $3) AS next_at,
                  (SELECT max(scheduled_time) FROM targets WHERE campaign_id = $1
                      AND status = 'Scheduled') AS last_at,
                  (SELECT coalesce(jsonb_object_agg(hold_rule, n), '{}'::jsonb)
                     FROM (SELECT hold_rule, count(*)::int AS n FROM targets
                            WHERE campaign_id = $1 AND hold_rule IS NOT NULL AND status = 'Scheduled'
                              AND scheduled_time > $3
                            GROUP BY hold_rule) held) AS held,
                  (SELECT coalesce(jsonb_agg(jsonb_build_object('rule', hold_rule, 'until', until,
                            'targets', n) ORDER BY until, hold_rule), '[]'::jsonb)
                     FROM (SELECT hold_rule, count(*)::int AS n,
                                  date_trunc('minute', scheduled_time + interval '59.999999 seconds') AS until
                             FROM targets
                            WHERE campaign_id = $1 AND hold_rule IS NOT NULL AND status = 'Scheduled'
                              AND scheduled_time > $3
                            GROUP BY hold_rule, until) held) AS held_until`,
        [campaignId, thisMinute, now],
      );
      return foldTargetCounts(groups, edges[0]);
    });
  }

  async findById(tx: Tx | null, organizationId: string, targetId: string): Promise<Target | null> {
    const { rows } = await sqlExecutor(this.dataSource, tx).query<TargetRow>(
      `SELECT ${COLUMNS} FROM targets WHERE id = $1 AND organization_id = $2`,
      [targetId, organizationId],
    );
    return rows[0] ? targetFromRow(rows[0]) : null;
  }
}

/**
 * The outcomes as the `jsonb_to_recordset` of finishAttempts and continueAfterTexts reads them, with
 * `more` columns of each, in target id order, so concurrent batches sharing targets lock them in one
 * order (the plan walks the list).
 */
function outcomeRecords<O extends TextContinuation>(
  outcomes: readonly O[],
  more: (o: O) => Record<string, unknown> = () => ({}),
): string {
  return JSON.stringify(
    [...outcomes]
      .sort((a, b) => (a.targetId < b.targetId ? -1 : a.targetId > b.targetId ? 1 : 0))
      .map((o) => ({
        organization_id: o.organizationId,
        target_id: o.targetId,
        status: o.status,
        resolution: o.resolution,
        category: o.category,
        subcategory: o.subcategory,
        outcome: o.outcome,
        retry_at: o.retryAt?.toISOString() ?? null,
        now: o.now.toISOString(),
        ...more(o),
      })),
  );
}

/** A campaign's counter rows summed per status, category, resolution and side of this minute. */
interface CountGroupRow {
  status: string;
  category: string | null;
  resolution: string | null;
  due: 'before' | 'from' | null;
  n: string;
}

/** What the counters cannot tell, read from the index: this minute's split, the holds, the edges. */
interface CountEdgesRow {
  due_this_minute: number;
  next_at: Date | null;
  last_at: Date | null;
  held: Record<string, number>;
  held_until: { rule: string; until: string; targets: number }[];
}

/** The stats' counts from a campaign's counter groups (see target-count-deltas.ts). */
function foldTargetCounts(groups: CountGroupRow[], edges: CountEdgesRow): CampaignTargetCounts {
  // The current minute's targets due by now move from "later" to "now".
  const counts: CampaignTargetCounts = {
    total: 0,
    byStatus: {},
    byCategory: {},
    byResolution: {},
    inFlight: 0,
    dueNow: edges.due_this_minute,
    dueLater: -edges.due_this_minute,
    nextScheduledAt: edges.next_at,
    heldByRule: edges.held,
    heldUntil: edges.held_until.map((h) => ({ ...h, until: new Date(h.until) })),
    lastScheduledAt: edges.last_at,
  };
  const add = (m: Record<string, number>, key: string | null, n: number) => {
    if (key !== null) m[key] = (m[key] ?? 0) + n;
  };
  for (const g of groups) {
    const n = Number(g.n);
    counts.total += n;
    add(counts.byStatus, g.status, n);
    add(counts.byCategory, g.category, n);
    add(counts.byResolution, g.resolution, n);
    if (IN_FLIGHT_STATUSES.includes(g.status as TargetStatus)) counts.inFlight += n;
    if (g.due === 'before') counts.dueNow += n;
    else if (g.due === 'from') counts.dueLater += n;
  }
  for (const m of [counts.byStatus, counts.byCategory, counts.byResolution])
    for (const [key, n] of Object.entries(m)) if (n === 0) delete m[key];
  return counts;
}
