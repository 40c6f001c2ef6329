import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { Tx } from '../../../common/persistence/unit-of-work.js';
import {
  columnList,
  NoRows,
  onUniqueViolation,
  preparedSql,
  SqlExecutor,
  sqlExecutor,
} from '../../../database/sql.js';
import { TypeOrmTx } from '../../../database/typeorm-unit-of-work.js';
import {
  DeleteOutcome,
  InputFieldGap,
  TargetListFilter,
  TargetPage,
  TargetPageRequest,
  TargetRepository,
} from '../application/ports/target.repository.js';
import { freshTargetState, NewTarget } from '../domain/new-targets.js';
import {
  AWAITING_CALL_STATUSES,
  IN_FLIGHT_STATUSES,
  NOT_STARTED_STATUSES,
  Target,
} from '../domain/target.js';
import { EventCause, TargetEventLog } from '../application/ports/target-event-log.js';
import { attributeChanges, causeParams, CAUSE_FROM } from './target-event-log.sql.js';
import {
  bucketsOfBounds,
  SecondCount,
  spanAmong,
  startAmong,
  walkInSecond,
  WalkStart,
} from './target-walk.js';
import {
  COMPACT_AFTER_EXTRA_ROWS,
  compactTargetCounts,
  TARGET_COUNT_GROUP,
} from './target-count-deltas.js';
import { notifyTargetsDue } from './target-transitions.sql.js';
import { TARGET_COLUMNS, targetFromRow, TargetRow } from './target.row.js';

const EXTERNAL_ID_KEY = 'targets_campaign_external_id_key';

/** The read every `GET /targets/{id}` makes (and integrators poll): prepared per connection. */
const TARGET_BY_ID = preparedSql(
  'target_by_id',
  `SELECT ${columnList(TARGET_COLUMNS)} FROM targets WHERE id = $1 AND organization_id = $2`,
);

/** `record` without its null and undefined fields (absent keys read as NULL in jsonb_to_recordset). */
function withoutNulls(record: Record<string, unknown>): Record<string, unknown> {
  const kept: Record<string, unknown> = {};
  for (const key in record) if (record[key] != null) kept[key] = record[key];
  return kept;
}

/**
 * Set-based SQL over the `targets` table; every batch is one statement. Each change goes through
 * `TargetEventLog.relay`, so the listeners hear of the events it records.
 */
@Injectable()
export class SqlTargetRepository extends TargetRepository {
  constructor(
    private readonly dataSource: DataSource,
    private readonly events: TargetEventLog,
  ) {
    super();
  }

  async findExistingExternalIds(
    tx: Tx | null,
    campaignId: string,
    externalIds: string[],
  ): Promise<Set<string>> {
    if (externalIds.length === 0) return new Set();
    const { rows } = await sqlExecutor(this.dataSource, tx).query<{ external_id: string }>(
      `SELECT external_id FROM targets WHERE campaign_id = $1 AND external_id = ANY($2::text[])`,
      [campaignId, externalIds],
    );
    return new Set(rows.map((r) => r.external_id));
  }

  async findExistingIds(
    tx: Tx | null,
    organizationId: string,
    ids: string[],
  ): Promise<Set<string>> {
    if (ids.length === 0) return new Set();
    // Another organization's targets are not looked at: ids are unique per organization, and an
    // answer that depended on them would tell whether another organization uses an id.
    const { rows } = await sqlExecutor(this.dataSource, tx).query<{ id: string }>(
      `SELECT id FROM targets WHERE id = ANY($1::uuid[]) AND organization_id = $2`,
      [ids, organizationId],
    );
    return new Set(rows.map((r) => r.id));
  }

  async insertMany(
    tx: Tx,
    targets: NewTarget[],
    options: { now: Date; skipTakenExternalIds: boolean; cause?: EventCause },
  ): Promise<string[]> {
    if (targets.length === 0) return [];
    return this.events.relay(tx, async () => {
    if (options.cause) await attributeChanges(sqlExecutor(this.dataSource, tx), options.cause);
    // One JSON parameter, as small as it can be: PostgreSQL parses all of it into jsonb before the
    // statement runs (at 10,000 targets that parse was a fifth of the insert). So a record leaves out
    // what is null and the organization and campaign when they are the batch's (they always are for
    // the API and the import), and its place in the batch is the array's order (WITH ORDINALITY).
    const [{ organizationId, campaignId }] = targets;
    const records = targets.map((t) =>
      withoutNulls({
        id: t.id,
        organization_id: t.organizationId === organizationId ? null : t.organizationId,
        campaign_id: t.campaignId === campaignId ? null : t.campaignId,
        external_id: t.externalId,
        phone_number: t.phoneNumber,
        phone_operating_hours: t.phoneOperatingHours,
        fallback_phone_number: t.fallbackPhoneNumber,
        fallback_operating_hours: t.fallbackOperatingHours,
        time_zone: t.timeZone,
        patient: t.patient,
        pre_call_data: t.preCallData,
        input_data: t.inputData,
        status: t.status,
        current_step: t.currentStep,
        scheduled_time: t.scheduledTime?.toISOString() ?? null,
      }),
    );
    // A new target's starting values come from the domain; the columns this leaves out start NULL,
    // as they do there.
    const fresh = freshTargetState();
    const onConflict = options.skipTakenExternalIds
      ? `ON CONFLICT (campaign_id, external_id) WHERE external_id IS NOT NULL DO NOTHING`
      : '';
    const { rows } = await onUniqueViolation(
      () =>
        sqlExecutor(this.dataSource, tx).query<{ id: string }>(
          `INSERT INTO targets (
           id, organization_id, campaign_id, external_id, phone_number, phone_operating_hours,
           fallback_phone_number, fallback_operating_hours, time_zone, patient, pre_call_data, input_data,
           output_data, status, current_step, scheduled_time, attempts, created_at, updated_at)
         SELECT r.id, coalesce(r.organization_id, $3::uuid), coalesce(r.campaign_id, $4::uuid),
                r.external_id, r.phone_number, r.phone_operating_hours,
                r.fallback_phone_number, r.fallback_operating_hours, r.time_zone, r.patient, r.pre_call_data,
                r.input_data,
                $5::jsonb, r.status, r.current_step, r.scheduled_time, $6::int,
                $2::timestamptz + (r.ord - 1) * interval '1 microsecond', $2::timestamptz
         FROM ROWS FROM (jsonb_to_recordset($1::jsonb) AS (
           id uuid, organization_id uuid, campaign_id uuid, external_id text,
           phone_number text, phone_operating_hours jsonb, fallback_phone_number text,
           fallback_operating_hours jsonb, time_zone text, patient jsonb, pre_call_data jsonb,
           input_data jsonb, status text, current_step text, scheduled_time timestamptz)) WITH ORDINALITY AS r(
           id, organization_id, campaign_id, external_id, phone_number, phone_operating_hours,
           fallback_phone_number, fallback_operating_hours, time_zone, patient, pre_call_data, input_data,
           status, current_step, scheduled_time, ord)
         ORDER BY r.ord
         ${onConflict}
         RETURNING id`,
          [
            JSON.stringify(records),
            options.now,
            organizationId,
            campaignId,
            JSON.stringify(fresh.outputData),
            fresh.attempts,
          ],
        ),
      {
        [EXTERNAL_ID_KEY]:
          'A target with one of these external ids was added to the campaign meanwhile',
      },
      'A target with one of these ids already exists',
    );
    // Launched targets are due now: wake the calling engine's dispatchers when this commits.
    if (rows.length > 0 && targets.some((t) => t.status === 'Scheduled')) {
      await notifyTargetsDue(sqlExecutor(this.dataSource, tx));
    }
    return rows.map((r) => r.id);
    });
  }

  async findById(organizationId: string, id: string): Promise<Target | null> {
    const { rows } = await sqlExecutor(this.dataSource, null).query<TargetRow>(TARGET_BY_ID, [
      id,
      organizationId,
    ]);
    return rows.length > 0 ? targetFromRow(rows[0]) : null;
  }

  async findLackingInput(
    organizationId: string,
    campaignId: string,
    paths: string[][],
    sample: number,
  ): Promise<{ awaiting: number; gaps: InputFieldGap[] }> {
    const { rows } = await sqlExecutor(this.dataSource, null).query<{
      awaiting: string;
      lacking: string[] | null;
      sampled: string[] | null;
    }>(
      // One pass over the campaign's awaiting targets: each field is checked per row, and the
      // counts and first ids are aggregated per field.
      `WITH awaiting AS MATERIALIZED (
         SELECT id, created_at, input_data FROM targets
          WHERE organization_id = $1 AND campaign_id = $2 AND status = ANY($3::text[])),
       fields AS (
         SELECT ord, string_to_array(path, '.') AS path FROM unnest($4::text[]) WITH ORDINALITY AS f(path, ord)),
       lacking AS (
         SELECT f.ord, a.id, row_number() OVER (PARTITION BY f.ord ORDER BY a.created_at, a.id) AS n
           FROM fields f JOIN awaiting a
             ON coalesce(jsonb_typeof(a.input_data #> f.path), 'null') NOT IN ('string', 'number', 'boolean'))
       SELECT (SELECT count(*) FROM awaiting)::text AS awaiting,
              (SELECT array_agg(coalesce(c.n, 0)::text ORDER BY f.ord) FROM fields f
                 LEFT JOIN (SELECT ord, count(*) AS n FROM lacking GROUP BY ord) c ON c.ord = f.ord) AS lacking,
              (SELECT array_agg(l.ord::text || ':' || l.id::text ORDER BY l.ord, l.n) FROM lacking l
                WHERE l.n <= $5) AS sampled`,
      [organizationId, campaignId, AWAITING_CALL_STATUSES, paths.map((p) => p.join('.')), sample],
    );
    const [row] = rows;
    const gaps: InputFieldGap[] = paths.map((_, i) => ({
      lacking: Number(row.lacking?.[i] ?? 0),
      targetIds: [],
    }));
    for (const entry of row.sampled ?? []) {
      const [ord, id] = entry.split(':');
      gaps[Number(ord) - 1].targetIds.push(id);
    }
    return { awaiting: Number(row.awaiting), gaps };
  }

  async findIdsByInputValue(
    organizationId: string,
    path: string[],
    value: string,
    limit: number,
  ): Promise<string[]> {
    const { rows } = await sqlExecutor(this.dataSource, null).query<{ id: string }>(
      `SELECT id::text AS id FROM targets
        WHERE organization_id = $1 AND input_data #>> $2::text[] = $3
          AND jsonb_typeof(input_data #> $2::text[]) IN ('string', 'number', 'boolean')
        ORDER BY last_call_date DESC NULLS LAST, created_at DESC, id
        LIMIT $4`,
      [organizationId, path, value, limit],
    );
    return rows.map((r) => r.id);
  }

  async mergeInputData(
    organizationId: string,
    id: string,
    patch: Record<string, unknown>,
    options: {
      onlyIfNotStarted: boolean;
      now: Date;
      cause?: EventCause;
      timeZone?: string | null;
    },
  ): Promise<Target | null> {
    return this.events.relay(null, async (tx) => {
      // The attribution rides in the statement (no transaction of its own unless listeners need one):
      // the trigger reads it at the statement's end.
      const { rows } = await sqlExecutor(this.dataSource, tx).query<TargetRow>(
      `UPDATE targets SET input_data = input_data || $3::jsonb, updated_at = $5,
              time_zone = CASE WHEN $12::boolean THEN $13::text ELSE time_zone END,
              scheduled_time = CASE WHEN $12::boolean AND status = 'Scheduled'
                                    THEN least(scheduled_time, $5) ELSE scheduled_time END,
              hold_rule = CASE WHEN $12::boolean THEN NULL ELSE hold_rule END,
              hold_reason = CASE WHEN $12::boolean THEN NULL ELSE hold_reason END
         FROM ${CAUSE_FROM(7)}
       WHERE id = $1 AND organization_id = $2
         AND (NOT $4::boolean OR (status = ANY($6::text[]) AND attempts = 0
                                  AND coalesce(cardinality(call_log_ids), 0) = 0))
       RETURNING ${columnList(TARGET_COLUMNS, 'targets')}`,
      [
        id,
        organizationId,
        JSON.stringify(patch),
        options.onlyIfNotStarted,
        options.now,
        NOT_STARTED_STATUSES,
        ...causeParams(options.cause),
        options.timeZone !== undefined,
        options.timeZone ?? null,
      ],
    );
    return rows.length > 0 ? targetFromRow(rows[0]) : null;
    });
  }

  async withdrawAdded(
    tx: Tx,
    organizationId: string,
    campaignId: string,
    ids: string[],
  ): Promise<string[]> {
    if (ids.length === 0) return [];
    return this.events.relay(tx, async () => {
    const sql = sqlExecutor(this.dataSource, tx);
    const { rows } = await sql.query<{ id: string }>(
      `DELETE FROM targets
       WHERE organization_id = $1 AND campaign_id = $2 AND id = ANY($3::uuid[])
         AND NOT (status = ANY($4::text[]))
       RETURNING id`,
      [organizationId, campaignId, ids, IN_FLIGHT_STATUSES],
    );
    if (rows.length === 0) return [];
    const withdrawn = rows.map((r) => r.id);
    // A separate statement: the delete trigger writes the `deleted` events when the delete ends.
    await sql.query<NoRows>(
      `DELETE FROM target_events
       WHERE organization_id = $1 AND campaign_id = $2 AND target_id = ANY($3::uuid[])`,
      [organizationId, campaignId, withdrawn],
    );
    return withdrawn;
    });
  }

  async deleteUnlessInFlight(
    organizationId: string,
    campaignId: string,
    ids: string[],
    now: Date,
    cause?: EventCause,
  ): Promise<DeleteOutcome> {
    return this.events.relay(null, async (tx) => {
    // One statement. The rows are locked first: a row a dispatcher is moving to In Progress is read
    // again once that commits (FOR UPDATE sees the latest version), and both lists come from the
    // locked rows, so a target that is starting its call is reported in flight, never missing.
      const { rows } = await sqlExecutor(this.dataSource, tx).query<{
      id: string;
      deleted: boolean;
    }>(
      `WITH locked AS (
         SELECT id, status FROM targets
         WHERE organization_id = $1 AND campaign_id = $2 AND id = ANY($3::uuid[])
         FOR UPDATE),
       gone AS (
         DELETE FROM targets t USING locked l, ${CAUSE_FROM(5)},
           -- The time of the deleted events (target_events_delete reads it).
           (SELECT set_config('calling.deleted_at', $10::text, true)) AS deleted_at
         WHERE t.id = l.id AND t.organization_id = $1 AND NOT (l.status = ANY($4::text[]))
         RETURNING t.id)
       SELECT l.id, NOT (l.status = ANY($4::text[])) AS deleted FROM locked l`,
      [
        organizationId,
        campaignId,
        ids,
        IN_FLIGHT_STATUSES,
        ...causeParams(cause),
        now.toISOString(),
      ],
    );
    return {
      deleted: rows.filter((r) => r.deleted).map((r) => r.id),
      inFlight: rows.filter((r) => !r.deleted).map((r) => r.id),
    };
    });
  }

  async list(
    organizationId: string,
    campaignId: string,
    filter: TargetListFilter,
    page: TargetPageRequest,
  ): Promise<TargetPage> {
    // A campaign's targets all carry its organization. The counters are kept per organization too, so
    // the count is scoped; once it is not zero, the campaign is the caller's and the walks below name
    // only the campaign, which keeps them inside an index (index-only scans). The final fetch checks the
    // organization again all the same.
    // One snapshot for the count and the page, so page_count always agrees with the rows listed.
    const { result, deltaRows } = await this.dataSource.transaction(
      'REPEATABLE READ',
      async (manager) => {
        const sql = sqlExecutor(this.dataSource, { manager } as TypeOrmTx);
        const counted = await this.countFromDeltas(sql, organizationId, campaignId, filter.status);
        // A status every target has (a fresh campaign's Pending ones) leaves nothing out: the list is
        // the campaign's, whose deep pages start at their second of creation.
        const everyTarget = filter.status !== undefined && counted.total === counted.campaignTotal;
        const { where, params } = listConditions(
          campaignId,
          everyTarget ? { ...filter, status: undefined } : filter,
        );
        const status = everyTarget ? undefined : filter.status;
        // Dates and external id are not in the counters: with any of them, the matching rows are counted.
        const byDatesToo = where.length > (status !== undefined ? 2 : 1);
        // One last-call bound, alone or with a status, splits the (status's) called targets, a
        // counter, in two: count the smaller side.
        const lastCallSplit =
          where.length === (status !== undefined ? 3 : 2) ? lastCallSplitOf(filter) : null;
        const byLastCall = filter.lastCallFrom !== undefined || filter.lastCallTo !== undefined;
        // A creation window, alone or with a status: its ends are positions in the campaign's order.
        const byCreatedAndStatusAtMost =
          (filter.createdFrom !== undefined || filter.createdTo !== undefined) &&
          filter.externalId === undefined &&
          !byLastCall;

        const created =
          byCreatedAndStatusAtMost && counted.total > 0
            ? await this.windowOf(
                sql,
                campaignId,
                CREATION_ORDER,
                filter.createdFrom,
                filter.createdTo,
                counted.campaignTotal,
              )
            : null;
        // Last-call bounds alone: their matches per second of creation, from the last-call deltas
        // between the bounds; the sum is the count, and a page's walk starts at its second.
        const byLastCallOnly =
          byLastCall &&
          status === undefined &&
          where.length === 1 + (filter.lastCallFrom ? 1 : 0) + (filter.lastCallTo ? 1 : 0);
        const matchesBySecond =
          byLastCallOnly && counted.called > 0
            ? await this.lastCallMatchesBySecond(
                sql,
                campaignId,
                filter.lastCallFrom,
                filter.lastCallTo,
              )
            : null;
        // Too many rows between the bounds: each bound's place among the called targets (the
        // timeline's whole), from the minutes on its fewer side.
        const lastCallWindow =
          byLastCallOnly && counted.called > 0 && !matchesBySecond
            ? await this.windowOf(
                sql,
                campaignId,
                LAST_CALLS,
                filter.lastCallFrom,
                filter.lastCallTo,
                counted.called,
              )
            : null;
        // Without a status, the window's pages are the campaign's pages from its start.
        const window = status === undefined ? created : null;
        if (window) counted.total = window.count;
        else if (created && created.count * 2 > counted.campaignTotal)
          counted.total -= await this.countOutsideWindow(sql, params, filter);
        else if (byLastCallOnly && counted.called === 0) counted.total = 0;
        else if (matchesBySecond)
          counted.total = matchesBySecond.reduce((sum, s) => sum + s.targets, 0);
        else if (lastCallWindow) counted.total = lastCallWindow.count;
        else if (lastCallSplit && counted.total > 0)
          counted.total = await this.countLastCallSplit(
            sql,
            where,
            params,
            counted.called,
            lastCallSplit,
          );
        else if (byDatesToo && counted.total > 0)
          counted.total = await this.countMatching(sql, where, params);
        // A last-call bound's few matches may lie anywhere in the creation order: sorted, not walked
        // (alone, unless the seconds holding the page's matches hold few other targets: pageOf).
        const sortMatches =
          byLastCall && counted.total <= fewMatchesOf(counted.campaignTotal, 100_000);
        const found = await this.pageOf(
          sql,
          organizationId,
          where,
          params,
          page,
          counted.total,
          window,
          sortMatches,
          matchesBySecond,
        );
        return { result: { ...found, total: counted.total }, deltaRows: counted.deltaRows };
      },
    );
    if (deltaRows > COMPACT_AFTER_EXTRA_ROWS)
      await compactTargetCounts(sqlExecutor(this.dataSource, null), campaignId);
    return result;
  }

  /**
   * Exact, from the counters the targets triggers keep (see target-count-deltas.ts): the targets of
   * `status` (all when undefined), those of them with a last call, and the whole campaign's.
   */
  private async countFromDeltas(
    sql: SqlExecutor,
    organizationId: string,
    campaignId: string,
    status: string | undefined,
  ): Promise<{ total: number; called: number; campaignTotal: number; deltaRows: number }> {
    // delta_rows: the rows beyond one per group, what folding would remove. called: those with a
    // last_call_date.
    const { rows } = await sql.query<{
      total: string;
      called: string;
      campaign_total: string;
      delta_rows: string;
    }>(
      `SELECT coalesce(sum(n) FILTER (WHERE $3::text IS NULL OR status = $3), 0) AS total,
              coalesce(sum(n) FILTER (WHERE called AND ($3::text IS NULL OR status = $3)), 0) AS called,
              coalesce(sum(n), 0) AS campaign_total,
              coalesce(sum(n_rows) - count(*), 0) AS delta_rows FROM (
         SELECT status, called, sum(delta) AS n, count(*) AS n_rows FROM target_count_deltas
         WHERE campaign_id = $1 AND organization_id = $2
         GROUP BY ${TARGET_COUNT_GROUP}) groups`,
      [campaignId, organizationId, status ?? null],
    );
    return {
      total: Number(rows[0].total),
      called: Number(rows[0].called),
      campaignTotal: Number(rows[0].campaign_total),
      deltaRows: Number(rows[0].delta_rows),
    };
  }

  /**
   * A window of a timeline (creation times, or last calls) as positions in it: how many of its
   * targets come before the window and after it, from the timeline's deltas. Null when a bound has
   * too many buckets on both sides to sum cheaply: the window's entries are counted then.
   */
  private async windowOf(
    sql: SqlExecutor,
    campaignId: string,
    timeline: DeltaTimeline,
    from: Date | undefined,
    to: Date | undefined,
    timelineTotal: number,
  ): Promise<TimelineWindow | null> {
    const before = from
      ? await this.targetsBefore(sql, campaignId, timeline, from, timelineTotal)
      : 0;
    if (before === null) return null;
    // Bounds are inclusive to the millisecond: the window ends one millisecond after `to`.
    const through = to
      ? await this.targetsBefore(
          sql,
          campaignId,
          timeline,
          new Date(to.getTime() + 1),
          timelineTotal,
        )
      : timelineTotal;
    if (through === null) return null;
    const count = Math.max(0, through - before);
    return { count, before, after: timelineTotal - before - count };
  }

  /**
   * With a status and a creation window holding most of the campaign, the status's targets outside the
   * window are likely the fewer: those are counted (two ranges of the status index) and taken from
   * the status's count. Exact either way; only which entries are walked depends on the guess.
   */
  private async countOutsideWindow(
    sql: SqlExecutor,
    params: unknown[],
    filter: TargetListFilter,
  ): Promise<number> {
    const args = [params[0], filter.status];
    const ranges: string[] = [];
    if (filter.createdFrom) ranges.push(`created_at < $${args.push(filter.createdFrom)}`);
    if (filter.createdTo)
      ranges.push(
        `created_at >= $${args.push(filter.createdTo)}::timestamptz + interval '1 millisecond'`,
      );
    const { rows } = await sql.query<{ n: string }>(
      `SELECT ${ranges
        .map(
          (r) => `(SELECT count(*) FROM targets WHERE campaign_id = $1 AND status = $2 AND ${r})`,
        )
        .join(' + ')} AS n`,
      args,
    );
    return Number(rows[0].n);
  }

  /**
   * How many of the campaign's targets come before `instant` in a timeline: the deltas of the whole
   * buckets before it (or, when those are more than BUCKETS_SUMMED_AT_MOST rows, of those after it,
   * taken from the timeline's total), plus the targets of its own bucket that come before it (an
   * index-only walk inside one bucket). Null when both sides have more rows than that.
   */
  private async targetsBefore(
    sql: SqlExecutor,
    campaignId: string,
    { table, bucket, bucketMs, column }: DeltaTimeline,
    instant: Date,
    timelineTotal: number,
  ): Promise<number | null> {
    // The bound's bucket as a parameter, not an expression over one: a range of the deltas' index.
    const start = new Date(Math.floor(instant.getTime() / bucketMs) * bucketMs);
    const sideOf = (condition: string, order: 'ASC' | 'DESC') =>
      `(SELECT count(*) AS read, coalesce(sum(delta), 0) AS targets FROM (
          SELECT delta FROM ${table} WHERE campaign_id = $1 AND ${bucket} ${condition}
           ORDER BY ${bucket} ${order} LIMIT $3) side)`;
    const { rows } = await sql.query<{ read: string; targets: string; in_bucket: string }>(
      `SELECT side.read, side.targets,
              (SELECT count(*) FROM targets WHERE campaign_id = $1 AND ${column} >= $2
                  AND ${column} < $4) AS in_bucket
         FROM ${sideOf('< $2', 'ASC')} side`,
      [campaignId, start, BUCKETS_SUMMED_AT_MOST, instant],
    );
    const inBucket = Number(rows[0].in_bucket);
    // Fewer rows than the limit: the side was read whole.
    if (Number(rows[0].read) < BUCKETS_SUMMED_AT_MOST) return Number(rows[0].targets) + inBucket;
    const later = await sql.query<{ read: string; targets: string }>(
      `SELECT side.read, side.targets FROM ${sideOf('>= $2', 'DESC')} side`,
      [campaignId, start, BUCKETS_SUMMED_AT_MOST],
    );
    if (Number(later.rows[0].read) < BUCKETS_SUMMED_AT_MOST)
      return timelineTotal - Number(later.rows[0].targets) + inBucket;
    return null;
  }

  /**
   * Exact count for a single last-call bound, with or without a status (`where` is the campaign, the
   * status if any and that bound, last; `otherSide` the targets that bound leaves out): the (status's) called targets are split by it, and only the smaller
   * side is walked, index-only, on `targets_campaign_last_call_idx` or, with a status,
   * `targets_campaign_status_last_call_idx`. The matches are first counted up to a few
   * (fewMatchesOf the called targets); past that, the other side is probed with a walk stopped at
   * half the called targets: if it ends sooner, it was the smaller side and the count is the
   * difference; else the matching side is at most the other half and is counted. Never walks more
   * than that few beyond what counting the matches would.
   */
  private async countLastCallSplit(
    sql: SqlExecutor,
    where: string[],
    params: unknown[],
    called: number,
    otherSide: string,
  ): Promise<number> {
    if (called === 0) return 0;
    // A recent bound's few matches (a poll for the latest calls) are counted whole first: probing the
    // other side would walk half the called targets.
    const fewAtMost = fewMatchesOf(called, 50_000);
    const few = await this.countUpTo(sql, where, params, fewAtMost + 1);
    if (few <= fewAtMost) return few;
    const half = Math.ceil(called / 2);
    // The same conditions with the bound's last one turned to the other side, on the same parameter.
    const others = [...where.slice(0, -1), otherSide.replace('?', `$${params.length}`)];
    const leftOut = await this.countUpTo(sql, others, params, half);
    if (leftOut < half) return called - leftOut;
    return this.countMatching(sql, where, params);
  }

  /** The targets matching `where`, counted up to `limit` (a walk of index entries stopped there). */
  private async countUpTo(
    sql: SqlExecutor,
    where: string[],
    params: unknown[],
    limit: number,
  ): Promise<number> {
    const { rows } = await sql.query<{ n: string }>(
      `SELECT count(*) AS n FROM (
         SELECT 1 FROM targets WHERE ${where.join(' AND ')} LIMIT $${params.length + 1}) counted`,
      [...params, limit],
    );
    return Number(rows[0].n);
  }

  /**
   * Date bounds are not in the counters: these count the matching index entries (index-only on
   * `targets_campaign_created_lc_idx` or the status index), never the table's rows.
   */
  private async countMatching(
    sql: SqlExecutor,
    where: string[],
    params: unknown[],
  ): Promise<number> {
    const { rows } = await sql.query<{ total: string }>(
      `SELECT count(*) AS total FROM targets WHERE ${where.join(' AND ')}`,
      params,
    );
    return Number(rows[0].total);
  }

  /**
   * The second of creation time that holds the target `skip` places from the `order` end, from a
   * running sum over the campaign's position deltas (migration 1768850000000), read in the list's
   * snapshot. The walk then starts at that second's near edge, or at its far edge when the page lies
   * in the second's far half (a campaign added in one request is one second).
   *
   * A delta row costs about three index entries to sum (0.5 against 0.18 µs, measured), so at most
   * `skip / 8` rows are read: a campaign with more seconds than that before the page (targets added
   * one a second) is walked as before, at a third more at worst. Null then.
   */
  private async startOfWalk(
    sql: SqlExecutor,
    campaignId: string,
    order: 'ASC' | 'DESC',
    skip: number,
    take: number,
  ): Promise<WalkStart | null> {
    const readAtMost = Math.ceil(skip / 8);
    const { rows } = await sql.query<{
      second: string;
      targets: string;
      through: string;
      partial: boolean;
    }>(
      `WITH read AS (
         SELECT created_second, delta FROM target_position_deltas WHERE campaign_id = $1
          ORDER BY created_second ${order} LIMIT $3),
       seconds AS (
         -- sum(integer) is a bigint: the running sum stays in integer arithmetic.
         SELECT created_second, sum(delta) AS targets,
                sum(sum(delta)::integer) OVER (ORDER BY created_second ${order}) AS through
           FROM read GROUP BY created_second HAVING sum(delta) <> 0)
       SELECT extract(epoch FROM created_second)::bigint AS second, targets, through,
              -- The last second read may have rows past the limit.
              (SELECT count(*) FROM read) = $3 AND created_second = (
                SELECT ${order === 'ASC' ? 'max' : 'min'}(created_second) FROM read) AS partial
         FROM seconds WHERE through > $2 ORDER BY created_second ${order} LIMIT 1`,
      [campaignId, skip, readAtMost],
    );
    if (!rows[0] || rows[0].partial) return null;
    return walkInSecond(
      BigInt(rows[0].second),
      Number(rows[0].targets),
      Number(rows[0].through),
      order,
      skip,
      take,
    );
  }

  /**
   * The targets matching last-call bounds alone, per second of creation (ascending), from the
   * last-call deltas (migration 1768880000000): the whole minutes inside the bounds are summed per
   * second, and the targets of the bounds' own minutes, on their side, are read from
   * `targets_campaign_last_call_idx`. Null when the whole minutes hold more than
   * LAST_CALL_DELTA_ROWS_READ_AT_MOST rows (calls that do not follow the creation order): the matches are
   * counted and walked as before then.
   */
  private async lastCallMatchesBySecond(
    sql: SqlExecutor,
    campaignId: string,
    from: Date | undefined,
    to: Date | undefined,
  ): Promise<SecondCount[] | null> {
    const { whole, parts } = bucketsOfBounds(from, to, LAST_CALLS.bucketMs);
    const timestampOf = (ms: number) =>
      Number.isFinite(ms) ? new Date(ms) : ms < 0 ? '-infinity' : 'infinity';
    const args: unknown[] = [
      campaignId,
      timestampOf(whole[0]),
      timestampOf(whole[1]),
      LAST_CALL_DELTA_ROWS_READ_AT_MOST,
    ];
    const partsSql = parts
      .map(([lo, hi]) => {
        args.push(timestampOf(lo), timestampOf(hi));
        return `SELECT created_at FROM targets WHERE campaign_id = $1
                   AND last_call_date >= $${args.length - 1} AND last_call_date < $${args.length}`;
      })
      .join(' UNION ALL ');
    const { rows } = await sql.query<{
      whole_rows: string;
      second: string | null;
      matches: string | null;
    }>(
      `WITH whole AS (
         SELECT created_second, delta FROM target_last_call_deltas
          WHERE campaign_id = $1 AND last_call_minute >= $2 AND last_call_minute < $3 LIMIT $4)
       SELECT w.whole_rows, s.second, s.matches
         FROM (SELECT count(*) AS whole_rows FROM whole) w
         LEFT JOIN (
           SELECT extract(epoch FROM created_second)::bigint AS second, sum(delta) AS matches
             FROM (SELECT created_second, delta FROM whole
                   ${partsSql ? `UNION ALL SELECT ${CREATED_SECOND_OF('created_at')}, 1 FROM (${partsSql}) p` : ''}
                  ) m
            GROUP BY created_second HAVING sum(delta) <> 0) s ON true
        ORDER BY s.second`,
      args,
    );
    if (Number(rows[0].whole_rows) >= LAST_CALL_DELTA_ROWS_READ_AT_MOST) return null;
    return rows
      .filter((r) => r.second !== null)
      .map((r) => ({ second: BigInt(r.second as string), targets: Number(r.matches) }));
  }

  /**
   * How many of the campaign's targets were created in the seconds from `first` to `last`, from the
   * position deltas; Infinity once more than `enough` rows are read (the sum would cost more than the
   * sort it decides on).
   */
  private async createdIn(
    sql: SqlExecutor,
    campaignId: string,
    { first, last }: { first: bigint; last: bigint },
    enough: number,
  ): Promise<number> {
    const { rows } = await sql.query<{ read: string; targets: string }>(
      `SELECT count(*) AS read, coalesce(sum(delta), 0) AS targets FROM (
         SELECT delta FROM target_position_deltas WHERE campaign_id = $1
            AND created_second >= to_timestamp($2::bigint) AND created_second <= to_timestamp($3::bigint)
          LIMIT $4) seconds`,
      [campaignId, first.toString(), last.toString(), enough + 1],
    );
    return Number(rows[0].read) > enough ? Infinity : Number(rows[0].targets);
  }

  /**
   * Deferred join: the page's ids come from an index-only walk of (created_at, id), and only those
   * rows are read from the table. A deep page walks from whichever end is nearer (the count is exact),
   * so the last page costs what the first does and the middle costs half a walk.
   */
  private async pageOf(
    sql: SqlExecutor,
    organizationId: string,
    where: string[],
    params: unknown[],
    page: TargetPageRequest,
    total: number,
    window: TimelineWindow | null = null,
    sortMatches = false,
    matchesBySecond: SecondCount[] | null = null,
  ): Promise<Omit<TargetPage, 'total'>> {
    let conditions = [...where];
    let args = [...params];
    let sorted = sortMatches;
    let order: 'ASC' | 'DESC' = 'ASC';
    let skip = 0;
    let take: number;
    let hasMore: (returned: number) => boolean;
    if ('after' in page) {
      args.push(String(page.after.createdMicros), page.after.id);
      conditions.push(
        `(created_at, id) > (${EPOCH_PLUS_MICROS(`$${args.length - 1}`)}, $${args.length}::uuid)`,
      );
      take = page.limit + 1; // one more tells whether another page follows
      hasMore = (returned) => returned > page.limit;
    } else {
      if (page.offset >= total) return { targets: [], next: null };
      const rest = total - page.offset;
      if (page.offset > rest) {
        order = 'DESC';
        take = Math.min(page.limit, rest);
        skip = rest - take;
      } else {
        // Never past the list's end: a window's walk below may drop the window's own bounds.
        take = Math.min(page.limit, rest);
        skip = page.offset;
      }
      hasMore = () => page.offset + page.limit < total;
      // Only the campaign's own order has position deltas; a filtered list walks its own index,
      // except a creation window, which is a stretch of that order (its ends are known positions).
      if ((where.length === 1 || window) && skip >= WALK_FROM_SECOND_AFTER) {
        const fromEnd = window ? (order === 'ASC' ? window.before : window.after) : 0;
        const start = await this.startOfWalk(sql, params[0] as string, order, fromEnd + skip, take);
        if (start) {
          // The page lies inside the window by its position: the walk needs only the campaign.
          conditions = [where[0]];
          args = [params[0]];
          args.push(start.from);
          conditions.push(`created_at ${start.side} to_timestamp($${args.length}::bigint)`);
          order = start.order;
          skip = start.skip;
        }
      }
      // Last-call bounds alone: the walk starts at the second holding the page's first match, not
      // across every earlier target (a bound at the middle of the calls: half the campaign).
      const start = matchesBySecond && startAmong(matchesBySecond, order, skip, take);
      if (start) {
        // Few matches may still lie far apart (early targets called again among the latest calls):
        // a walk between them crosses every target created in between. Walked when that is at most
        // twice the matches, else sorted (from the same start: the page is the same).
        if (sorted) {
          const span = spanAmong(matchesBySecond, order, skip, take);
          sorted =
            !span || (await this.createdIn(sql, params[0] as string, span, 2 * total)) > 2 * total;
        }
        args.push(start.from);
        conditions.push(`created_at ${start.side} to_timestamp($${args.length}::bigint)`);
        order = start.order;
        skip = start.skip;
      }
    }
    args.push(take, String(skip), organizationId);
    const n = args.length;
    // A last-call bound leaves out targets anywhere in the creation order, and calls go roughly in
    // that order: a recent bound matches the latest targets, and a walk of that order crosses every
    // earlier one before its first match (a poll for the last hundredth's calls of a 1M campaign:
    // ~990,000 entries). Few matches (fewMatchesOf) are read from a last-call index (which carries
    // created_at and id) and sorted instead, wherever they lie; an expression of created_at, in the
    // same order, keeps the planner from walking the creation order for the ORDER BY. More are
    // walked: the walk stops at the page, the sort would read every match. Bounds alone start
    // at the second holding the page's first match (above), walked or sorted.
    const sortedBy = sorted ? `created_at + interval '0'` : 'created_at';
    const { rows } = await sql.query<TargetRow & { position_micros: string }>(
      `SELECT t.*, p.position_micros FROM (
         SELECT id, created_at, ${MICROS_OF('created_at')} AS position_micros FROM targets
         WHERE ${conditions.join(' AND ')}
         ORDER BY ${sortedBy} ${order}, id ${order} LIMIT $${n - 2} OFFSET $${n - 1}) p
       JOIN targets t ON t.id = p.id AND t.organization_id = $${n}
       ORDER BY p.created_at ${order}, p.id ${order}`,
      args,
    );
    if (order === 'DESC') rows.reverse();
    const more = hasMore(rows.length);
    const listed = rows.slice(0, page.limit);
    const last = listed[listed.length - 1];
    return {
      targets: listed.map(targetFromRow),
      next: more && last ? { createdMicros: Number(last.position_micros), id: last.id } : null,
    };
  }
}

/**
 * A last-call bound's few matches among `of` targets: at most an eighth of them (a walk of the
 * creation order would cross eight entries or more per match) and at most `atMost`. A page sorts up
 * to 100,000 matches (about 15 ms at 1M targets, measured; a walk across the campaign's middle
 * costs 35-60 ms); a count first counts up to 50,000 (about 5 ms, paid by every bound that matches
 * more).
 */
function fewMatchesOf(of: number, atMost: number): number {
  return Math.min(atMost, Math.floor(of / 8));
}

/**
 * Rows of last-call deltas read at most for one list: a row costs about three index entries to read
 * and sum (measured on the position deltas), and 8,000 of them about 4 ms.
 */
const LAST_CALL_DELTA_ROWS_READ_AT_MOST = 8000;

/** Deeper than this many targets from the nearer end, an unfiltered page starts at its second. */
const WALK_FROM_SECOND_AFTER = 2000;

/**
 * A bound with more buckets of deltas than this on both sides is not summed (a bucket's rows cost
 * about three index entries to sum): the window's entries are counted instead.
 */
const BUCKETS_SUMMED_AT_MOST = 4000;

/**
 * A timeline the targets triggers keep deltas of: per bucket of `column`, how many of a campaign's
 * targets it gained or lost (only those with a value).
 */
interface DeltaTimeline {
  table: string;
  bucket: string;
  bucketMs: number;
  column: string;
}

/** Creation times, per second (migration 1768850000000): targets are added in requests, a second each. */
const CREATION_ORDER: DeltaTimeline = {
  table: 'target_position_deltas',
  bucket: 'created_second',
  bucketMs: 1000,
  column: 'created_at',
};

/** Last calls, per minute (migration 1768880000000): calls start continuously, in rounds. */
const LAST_CALLS: DeltaTimeline = {
  table: 'target_last_call_deltas',
  bucket: 'last_call_minute',
  bucketMs: 60_000,
  column: 'last_call_date',
};

/** A window of a timeline, in positions: a creation window is a stretch of the campaign's (created_at, id) order. */
interface TimelineWindow {
  count: number;
  /** The campaign's targets before the window, and after it. */
  before: number;
  after: number;
}

/**
 * A list's conditions, `$1` the campaign: only the filters given become conditions, so the planner
 * sees plain predicates for the indexes.
 */
function listConditions(
  campaignId: string,
  filter: TargetListFilter,
): { where: string[]; params: unknown[] } {
  const params: unknown[] = [campaignId];
  const where = ['campaign_id = $1'];
  const add = (condition: string, value: unknown) => {
    params.push(value);
    where.push(condition.replace('?', `$${params.length}`));
  };
  if (filter.status !== undefined) add('status = ?', filter.status);
  // Not in the counters either: counted through the (campaign_id, external_id) unique index.
  if (filter.externalId !== undefined) add('external_id = ?', filter.externalId);
  if (filter.createdFrom) add('created_at >= ?', filter.createdFrom);
  // Bounds are inclusive to the millisecond (JS dates); rows carry microseconds (see date-bounds).
  if (filter.createdTo)
    add("created_at < ?::timestamptz + interval '1 millisecond'", filter.createdTo);
  if (filter.lastCallFrom) add('last_call_date >= ?', filter.lastCallFrom);
  if (filter.lastCallTo) add(`last_call_date < ${LAST_CALL_TO}`, filter.lastCallTo);
  return { where, params };
}

/** The exclusive end of an inclusive last-call upper bound (bounds are inclusive to the millisecond). */
const LAST_CALL_TO = "?::timestamptz + interval '1 millisecond'";

/**
 * With a single last-call bound, the called targets it leaves out (`?` is the bound). A null
 * last_call_date matches neither side.
 */
function lastCallSplitOf(filter: TargetListFilter): string | null {
  if (filter.lastCallFrom && !filter.lastCallTo) return 'last_call_date < ?';
  if (filter.lastCallTo && !filter.lastCallFrom) return `last_call_date >= ${LAST_CALL_TO}`;
  return null;
}

/** The whole second of creation a target is counted in by the deltas (migration 1768850000000). */
const CREATED_SECOND_OF = (column: string) =>
  `date_bin('1 second', ${column}, timestamptz 'epoch')`;

/** created_at in whole microseconds since the epoch, exact (extract gives numeric). */
const MICROS_OF = (column: string) => `(extract(epoch FROM ${column}) * 1000000)::bigint`;
/** The inverse of MICROS_OF for a bigint parameter. */
const EPOCH_PLUS_MICROS = (param: string) =>
  `(timestamptz 'epoch' + ${param}::bigint * interval '1 microsecond')`;
