import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { foldDue, FoldReport, sqlCountFolder } from '../../../common/persistence/count-folding.js';
import { rowMapper, type RowOf } from '../../../common/persistence/row-of.js';
import { Tx } from '../../../common/persistence/unit-of-work.js';
import { NoRows, SqlExecutor, sqlExecutor } from '../../../database/sql.js';
import { TypeOrmTx } from '../../../database/typeorm-unit-of-work.js';
import { CallLog, NewCallLog } from '../domain/call-log.js';
import {
  CallLogCompletionEntry,
  CallLogFilter,
  CallLogRepository,
  CallLookup,
  CampaignCallCounts,
} from '../application/ports/call-log.repository.js';

/**
 * A `call_logs` row as `pg` returns it: the domain's fields in snake_case, but the bigint id comes back
 * as a string, the numbers are `to_number` and `from_number`, and the recordings may be null.
 */
export type CallLogRow = RowOf<Omit<CallLog, 'id' | 'to' | 'from' | 'recordingUrls'>> & {
  id: string;
  to_number: string;
  from_number: string;
  recording_urls: string[] | null;
};

const COLUMNS = `id, organization_id, campaign_id, target_id, attempt, to_number, from_number, provider,
  provider_call_id, outcome, ended_reason, call_categorization, agent_data, post_call_data, qa,
  transcripts, recording_urls, output_data, subcategory, started_at, ended_at, duration_seconds,
  deadline_at, created_at`;
/** COLUMNS of the call_logs row aliased `c`. */
const JOINED_COLUMNS = COLUMNS.replace(/(\w+)/g, 'c.$1');

export const callLogFromRow = rowMapper<CallLog, CallLogRow>()(
  COLUMNS,
  {
    id: (r) => Number(r.id),
    recordingUrls: (r) => r.recording_urls ?? [],
    outputData: (r) => r.output_data ?? null,
    subcategory: (r) => r.subcategory ?? null,
  },
  { to_number: 'to', from_number: 'from' },
);

@Injectable()
export class SqlCallLogRepository extends CallLogRepository {
  constructor(private readonly dataSource: DataSource) {
    super();
  }

  async recentOutcomeShare(
    campaignId: string,
    window: number,
    outcome: string,
    endedAfter: Date | null,
  ): Promise<{ ended: number; matching: number }> {
    // call_logs_campaign_ended_idx (migration 1768700000000) reads just these rows, newest first.
    const { rows } = await sqlExecutor(this.dataSource, null).query<{
      ended: number;
      matching: number;
    }>(
      `SELECT count(*)::int AS ended, count(*) FILTER (WHERE outcome = $3)::int AS matching
         FROM (SELECT outcome FROM call_logs
                WHERE campaign_id = $1 AND ended_at IS NOT NULL
                  AND ($4::timestamptz IS NULL OR ended_at > $4::timestamptz)
                ORDER BY ended_at DESC, id DESC LIMIT $2) recent`,
      [campaignId, window, outcome, endedAfter],
    );
    return rows[0];
  }

  async countCampaign(
    campaignId: string,
    connectedOutcomes: readonly string[],
    since: Date,
  ): Promise<CampaignCallCounts> {
    // From the counters the call_logs triggers keep (`call-logs.triggers.sql.ts`), and a short range of
    // the campaign's recent starts; one snapshot for both.
    // Read only: the folding job folds the counter rows (foldCounts).
    return this.dataSource.transaction('REPEATABLE READ', async (manager) => {
      const sql = sqlExecutor(this.dataSource, { manager } as TypeOrmTx);
      const { rows } = await sql.query<{
        calls: string;
        ended: string;
        connected: string;
        connected_timed: string;
        connected_seconds: string;
        started_since: number;
      }>(
        `SELECT coalesce(sum(n), 0) AS calls,
                  coalesce(sum(n) FILTER (WHERE ended), 0) AS ended,
                  coalesce(sum(n) FILTER (WHERE ended AND outcome = ANY($2::text[])), 0) AS connected,
                  coalesce(sum(timed) FILTER (WHERE ended AND outcome = ANY($2::text[])), 0) AS connected_timed,
                  coalesce(sum(seconds) FILTER (WHERE ended AND outcome = ANY($2::text[])), 0) AS connected_seconds,
                  (SELECT count(*)::int FROM call_logs WHERE campaign_id = $1 AND started_at >= $3)
                    AS started_since
             FROM (SELECT ended, outcome, sum(delta) AS n, sum(timed) AS timed,
                          sum(duration_seconds) AS seconds
                     FROM call_log_count_deltas WHERE campaign_id = $1
                    GROUP BY organization_id, ended, outcome) groups`,
        [campaignId, [...connectedOutcomes], since],
      );
      const r = rows[0];
      const timed = Number(r.connected_timed);
      return {
        calls: Number(r.calls),
        open: Number(r.calls) - Number(r.ended),
        ended: Number(r.ended),
        connected: Number(r.connected),
        averageConnectedSeconds: timed === 0 ? null : Number(r.connected_seconds) / timed,
        startedSince: r.started_since,
      };
    });
  }

  async createMany(tx: Tx, logs: NewCallLog[]): Promise<number[]> {
    if (logs.length === 0) return [];
    const { rows } = await sqlExecutor(this.dataSource, tx).query<{
      id: string;
      target_id: string;
    }>(
      `INSERT INTO call_logs (organization_id, campaign_id, target_id, attempt, to_number, from_number, provider,
                              started_at, deadline_at, created_at)
       SELECT r.organization_id, r.campaign_id, r.target_id, r.attempt, r.to_number, r.from_number, r.provider,
              r.started_at, r.deadline_at, r.started_at
         FROM jsonb_to_recordset($1::jsonb) AS r(ord int, organization_id uuid, campaign_id uuid,
              target_id uuid, attempt int, to_number text, from_number text, provider text,
              started_at timestamptz, deadline_at timestamptz)
        ORDER BY r.ord
       RETURNING id, target_id`,
      [
        JSON.stringify(
          logs.map((l, ord) => ({
            ord,
            organization_id: l.organizationId,
            campaign_id: l.campaignId,
            target_id: l.targetId,
            attempt: l.attempt,
            to_number: l.to,
            from_number: l.from,
            provider: l.provider,
            started_at: l.startedAt.toISOString(),
            deadline_at: l.deadlineAt.toISOString(),
          })),
        ),
      ],
    );
    // One new call per target in a batch: the target names its row.
    const byTarget = new Map(rows.map((r) => [r.target_id, Number(r.id)]));
    return logs.map((l) => byTarget.get(l.targetId)!);
  }

  async completeMany(tx: Tx, entries: CallLogCompletionEntry[]): Promise<number[]> {
    if (entries.length === 0) return [];
    // The first entry of an id wins (UPDATE ... FROM would pick any of two rows joined to one log).
    const firsts = new Map<number, CallLogCompletionEntry>();
    for (const entry of entries) if (!firsts.has(entry.id)) firsts.set(entry.id, entry);
    const { rows } = await sqlExecutor(this.dataSource, tx).query<{ id: string }>(
      `UPDATE call_logs c SET outcome = e.outcome, ended_reason = e.ended_reason,
              provider_call_id = coalesce(c.provider_call_id, e.provider_call_id),
              call_categorization = e.call_categorization, agent_data = e.agent_data,
              post_call_data = e.post_call_data, qa = e.qa, transcripts = e.transcripts,
              recording_urls = e.recording_urls, ended_at = e.ended_at,
              duration_seconds = e.duration_seconds, output_data = e.output_data,
              subcategory = e.subcategory, deadline_at = NULL
         FROM jsonb_to_recordset($1::jsonb) AS e(id bigint, outcome text, ended_reason text,
              provider_call_id text, call_categorization jsonb, agent_data jsonb,
              post_call_data jsonb, qa jsonb, transcripts jsonb, recording_urls text[],
              ended_at timestamptz, duration_seconds integer, output_data jsonb, subcategory text)
        WHERE c.id = e.id AND c.ended_at IS NULL
        RETURNING c.id`,
      [
        JSON.stringify(
          // In id order, so concurrent batches sharing rows lock them in one order (the
          // plan walks the list).
          [...firsts.values()]
            .sort((a, b) => a.id - b.id)
            .map(({ id, completion: c }) => ({
              id,
              outcome: c.outcome,
              ended_reason: c.endedReason,
              provider_call_id: c.providerCallId,
              call_categorization: c.callCategorization,
              agent_data: c.agentData,
              post_call_data: c.postCallData,
              qa: c.qa,
              transcripts: c.transcripts,
              recording_urls: c.recordingUrls,
              ended_at: c.endedAt.toISOString(),
              duration_seconds: c.durationSeconds,
              output_data: c.outputData,
              subcategory: c.subcategory,
            })),
        ),
      ],
    );
    return rows.map((r) => Number(r.id));
  }

  async recordProviderCallIds(
    entries: { id: number; providerCallId: string; deadlineAt: Date }[],
    tx: Tx | null = null,
  ): Promise<number[]> {
    if (entries.length === 0) return [];
    const { rows } = await sqlExecutor(this.dataSource, tx).query<{ id: string }>(
      `UPDATE call_logs c SET provider_call_id = e.provider_call_id, deadline_at = e.deadline_at
         FROM unnest($1::bigint[], $2::text[], $3::timestamptz[]) AS e(id, provider_call_id, deadline_at)
        WHERE c.id = e.id AND c.ended_at IS NULL AND c.provider_call_id IS NULL
        RETURNING c.id`,
      [
        entries.map((e) => e.id),
        entries.map((e) => e.providerCallId),
        entries.map((e) => e.deadlineAt),
      ],
    );
    return rows.map((r) => Number(r.id));
  }

  async claimOverdue(now: Date, retryAt: Date, limit: number): Promise<CallLog[]> {
    const { rows } = await sqlExecutor(this.dataSource, null).query<CallLogRow>(
      `WITH overdue AS MATERIALIZED (
         SELECT id FROM call_logs WHERE ended_at IS NULL AND deadline_at < $1
          ORDER BY deadline_at LIMIT $3 FOR UPDATE SKIP LOCKED)
       UPDATE call_logs c SET deadline_at = $2 FROM overdue WHERE c.id = overdue.id
       RETURNING ${JOINED_COLUMNS}`,
      [now, retryAt, limit],
    );
    return rows.map(callLogFromRow);
  }

  async findByIds(ids: number[], tx: Tx | null = null): Promise<CallLog[]> {
    const valid = ids.filter((id) => Number.isSafeInteger(id) && id >= 0);
    if (valid.length === 0) return [];
    const { rows } = await sqlExecutor(this.dataSource, tx).query<CallLogRow>(
      `SELECT ${COLUMNS} FROM call_logs WHERE id = ANY($1::bigint[])`,
      [valid],
    );
    return rows.map(callLogFromRow);
  }

  async findLatest(
    organizationId: string,
    lookup: CallLookup,
    campaignIds: string[] | null = null,
  ): Promise<CallLog | null> {
    const [condition, value] =
      'id' in lookup
        ? ['id = $2', lookup.id]
        : 'to' in lookup
          ? ['to_number = $2', lookup.to]
          : ['target_id = ANY($2::uuid[])', lookup.targetIds];
    const { rows } = await sqlExecutor(this.dataSource, null).query<CallLogRow>(
      `SELECT ${COLUMNS} FROM call_logs WHERE organization_id = $1 AND ${condition}
          AND ($3::uuid[] IS NULL OR campaign_id = ANY($3::uuid[]))
        ORDER BY ended_at IS NULL DESC, started_at DESC, id DESC LIMIT 1`,
      [organizationId, value, campaignIds],
    );
    return rows.length > 0 ? callLogFromRow(rows[0]) : null;
  }

  async findByProviderCallIds(provider: string, providerCallIds: string[]): Promise<CallLog[]> {
    if (providerCallIds.length === 0) return [];
    const { rows } = await sqlExecutor(this.dataSource, null).query<CallLogRow>(
      `SELECT ${COLUMNS} FROM call_logs WHERE provider = $1 AND provider_call_id = ANY($2::text[])`,
      [provider, providerCallIds],
    );
    return rows.map(callLogFromRow);
  }

  async list(
    filter: CallLogFilter,
    offset: number,
    limit: number,
  ): Promise<{ items: CallLog[]; total: number }> {
    const params: unknown[] = [];
    const where = scopeOf(filter, params);
    if (filter.from) where.push(`created_at >= $${params.push(filter.from)}`);
    // Inclusive to the millisecond: a date-only bound ends at .999 and rows carry microseconds.
    if (filter.to)
      where.push(`created_at < $${params.push(filter.to)}::timestamptz + interval '1 millisecond'`);
    const condition = where.join(' AND ');
    const byDates = Boolean(filter.from || filter.to);

    // One snapshot for the count and the page, so they agree (see the target list).
    // Read only: the folding job folds the count and hour deltas it sums (foldCounts).
    return this.dataSource.transaction('REPEATABLE READ', async (manager) => {
      const sql = sqlExecutor(this.dataSource, { manager } as TypeOrmTx);
      // Without dates, from the counters the call_logs triggers keep (`call-logs.triggers.sql.ts`);
      // with dates, from the hour deltas and the window's partial hours.
      const total = byDates
        ? await this.countWindow(sql, filter)
        : await this.countAll(sql, condition, params);
      if (offset >= total) return { items: [], total };
      // Deferred join from the nearer end: ids by an index-only walk, then only the page's rows.
      const rest = total - offset;
      const backward = offset > rest;
      const take = backward ? Math.min(limit, rest) : limit;
      const skip = backward ? rest - take : offset;
      const order = backward ? 'DESC' : 'ASC';
      const n = params.length;
      const { rows } = await sql.query<CallLogRow>(
        `SELECT ${JOINED_COLUMNS} FROM (
             SELECT id FROM call_logs WHERE ${condition}
             ORDER BY id ${order} LIMIT $${n + 1} OFFSET $${n + 2}) p
           JOIN call_logs c ON c.id = p.id
           ORDER BY c.id ${order}`,
        [...params, take, String(skip)],
      );
      if (backward) rows.reverse();
      return { items: rows.map(callLogFromRow), total };
    });
  }

  /** The organization's (or campaign's) logs, from the count deltas. */
  private async countAll(sql: SqlExecutor, condition: string, params: unknown[]): Promise<number> {
    const { rows } = await sql.query<{ total: string }>(
      `SELECT coalesce(sum(delta), 0) AS total FROM call_log_count_deltas WHERE ${condition}`,
      params,
    );
    return Number(rows[0].total);
  }

  /**
   * The logs of a date window: the hour deltas of its whole hours, plus the logs of the partial hours
   * at its ends, counted on `call_logs_created_idx` (a part of the window, so never more than counting
   * the window). A window inside one or two partial hours is counted directly.
   */
  private async countWindow(sql: SqlExecutor, filter: CallLogFilter): Promise<number> {
    const { from, end, hoursFrom, hoursTo } = hoursOf(filter);

    const params: unknown[] = [];
    const scope = scopeOf(filter, params);
    const logsBetween = (lo: Date | null, hi: Date | null) =>
      `(SELECT count(*) FROM call_logs WHERE ${[
        ...scope,
        ...(lo ? [`created_at >= $${params.push(lo)}`] : []),
        ...(hi ? [`created_at < $${params.push(hi)}`] : []),
      ].join(' AND ')})`;

    if (hoursFrom && hoursTo && hoursFrom >= hoursTo) {
      const { rows } = await sql.query<{ n: string }>(
        `SELECT ${logsBetween(from, end)} AS n`,
        params,
      );
      return Number(rows[0].n);
    }
    const hours = [...scope];
    if (hoursFrom) hours.push(`created_hour >= $${params.push(hoursFrom)}`);
    if (hoursTo) hours.push(`created_hour < $${params.push(hoursTo)}`);
    const edges = [
      ...(from && hoursFrom && hoursFrom > from ? [logsBetween(from, hoursFrom)] : []),
      ...(end && hoursTo && end > hoursTo ? [logsBetween(hoursTo, end)] : []),
    ];
    const { rows } = await sql.query<{ total: string }>(
      `SELECT coalesce(sum(delta), 0) ${edges.map((e) => `+ ${e}`).join(' ')} AS total
         FROM call_log_hour_deltas WHERE ${hours.join(' AND ')}`,
      params,
    );
    return Number(rows[0].total);
  }

  async foldCounts(): Promise<FoldReport> {
    const sql = sqlExecutor(this.dataSource, null);
    const byOrganization = (table: string, fold: string) =>
      sqlCountFolder(sql, table, 'organization_id', async (organizationId) => {
        await sql.query<NoRows>(fold, [organizationId]);
      });
    return foldDue([
      byOrganization('call_log_count_deltas', FOLD_COUNTS),
      byOrganization('call_log_hour_deltas', FOLD_HOURS),
    ]);
  }
}

/**
 * Folds an organization's count deltas to a row per group, in one statement: a reader sees the old
 * rows or their sum, and a concurrent fold finds the rows gone and adds nothing.
 */
const FOLD_COUNTS = `
  WITH gone AS (
    DELETE FROM call_log_count_deltas WHERE organization_id = $1
    RETURNING campaign_id, ended, outcome, delta, timed, duration_seconds)
  INSERT INTO call_log_count_deltas
    (organization_id, campaign_id, ended, outcome, delta, timed, duration_seconds, folded)
  SELECT $1, campaign_id, ended, outcome, sum(delta), sum(timed), sum(duration_seconds), true
    FROM gone GROUP BY campaign_id, ended, outcome
  HAVING sum(delta) <> 0 OR sum(timed) <> 0 OR sum(duration_seconds) <> 0`;

/** Folds an organization's hour deltas to a row per campaign and hour, in one statement. */
const FOLD_HOURS = `
  WITH gone AS (
    DELETE FROM call_log_hour_deltas WHERE organization_id = $1
    RETURNING campaign_id, created_hour, delta)
  INSERT INTO call_log_hour_deltas (organization_id, campaign_id, created_hour, delta, folded)
  SELECT $1, campaign_id, created_hour, sum(delta), true FROM gone
   GROUP BY campaign_id, created_hour HAVING sum(delta) <> 0`;

/** The filter's organization and campaign conditions, their values pushed onto `params`. */
function scopeOf(filter: CallLogFilter, params: unknown[]): string[] {
  const scope = [`organization_id = $${params.push(filter.organizationId)}`];
  if (filter.campaignId) scope.push(`campaign_id = $${params.push(filter.campaignId)}`);
  if (filter.campaignIds)
    scope.push(`campaign_id = ANY($${params.push(filter.campaignIds)}::uuid[])`);
  return scope;
}

const HOUR_MS = 3_600_000;

/**
 * A date window's bounds (`end` exclusive: bounds are inclusive to the millisecond) and its whole
 * hours, `[hoursFrom, hoursTo)`; null for a bound not given. Hours start on the epoch's, as
 * `date_bin('1 hour', created_at, timestamptz 'epoch')` in migration 1768860000000.
 */
function hoursOf(filter: CallLogFilter) {
  const from = filter.from ?? null;
  const end = filter.to ? new Date(filter.to.getTime() + 1) : null;
  return {
    from,
    end,
    hoursFrom: from && new Date(Math.ceil(from.getTime() / HOUR_MS) * HOUR_MS),
    hoursTo: end && new Date(Math.floor(end.getTime() / HOUR_MS) * HOUR_MS),
  };
}
