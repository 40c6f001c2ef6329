import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { CreationPosition } from '../../../common/paging/paging.js';
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
  InputDataMerge,
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
import { Span, spanAmong, spanHolding, startAmong, targetsBefore } from './target-walk.js';
import { nameHalves, type TargetSearch } from '../domain/target-search.js';
import { createdAround, positionSpans, STATUS_IS } from './target-position-counts.js';
import { lastCallMatchesPerBlock } from './target-last-call-counts.js';
import { targetCountFolders } from './target-count-folders.js';
import { foldDue, FoldReport } from '../../../common/persistence/count-folding.js';
import { notifyTargetsDue } from './target-transitions.sql.js';
import { NEW_TARGET_COLUMNS, TARGET_COLUMNS, targetFromRow, TargetRow } from './target.row.js';

const EXTERNAL_ID_KEY = 'targets_campaign_external_id_key';

/** The read every `GET /targets/{id}` makes (and integrators poll): prepared per connection. */
const TARGET_BY_ID = preparedSql(
  'target_by_id',
  `SELECT ${columnList(TARGET_COLUMNS)} FROM targets WHERE id = $1 AND organization_id = $2`,
);

/** A record's organization and campaign are left out when they are the batch's ($3, $4). */
const BATCH_OWNER: Record<string, string> = {
  organization_id: 'coalesce(r.organization_id, $3::uuid)',
  campaign_id: 'coalesce(r.campaign_id, $4::uuid)',
};
/**
 * The add's statement up to its conflict clause, its column lists built from NEW_TARGET_COLUMNS
 * (target.row.ts): $1 the records (JSON), $2 now, $3 and $4 the batch's organization and campaign, $5
 * and $6 a new target's output data and attempts. Each row's created_at is now plus its place in
 * the batch, in microseconds, so a batch lists in request order.
 */
const INSERT_NEW_TARGETS = `
  INSERT INTO targets (${NEW_TARGET_COLUMNS.map((c) => c.column).join(', ')},
                       output_data, attempts, created_at, updated_at)
  SELECT ${NEW_TARGET_COLUMNS.map((c) => BATCH_OWNER[c.column] ?? `r.${c.column}`).join(', ')},
         $5::jsonb, $6::int, $2::timestamptz + (r.ord - 1) * interval '1 microsecond', $2::timestamptz
    FROM ROWS FROM (jsonb_to_recordset($1::jsonb) AS (
           ${NEW_TARGET_COLUMNS.map((c) => `${c.column} ${c.type}`).join(', ')}))
         WITH ORDINALITY AS r(${NEW_TARGET_COLUMNS.map((c) => c.column).join(', ')}, ord)
   ORDER BY r.ord`;

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
      const records = targets.map((t) => {
        const record: Record<string, unknown> = {};
        for (const c of NEW_TARGET_COLUMNS) record[c.column] = c.value(t);
        if (t.organizationId === organizationId) record.organization_id = null;
        if (t.campaignId === campaignId) record.campaign_id = null;
        return withoutNulls(record);
      });
      // A new target's starting values come from the domain; the columns this leaves out start NULL,
      // as they do there.
      const fresh = freshTargetState();
      const onConflict = options.skipTakenExternalIds
        ? `ON CONFLICT (campaign_id, external_id) WHERE external_id IS NOT NULL DO NOTHING`
        : '';
      const { rows } = await onUniqueViolation(
        () =>
          sqlExecutor(this.dataSource, tx).query<{ id: string }>(
            `${INSERT_NEW_TARGETS}
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
      // counts and first ids are aggregated per field. A path starts at the root a template names
      // (input_data or patient).
      `WITH awaiting AS MATERIALIZED (
         SELECT id, created_at, jsonb_build_object('input_data', input_data, 'patient', patient) AS data
           FROM targets
          WHERE organization_id = $1 AND campaign_id = $2 AND status = ANY($3::text[])),
       fields AS (
         SELECT ord, string_to_array(path, '.') AS path FROM unnest($4::text[]) WITH ORDINALITY AS f(path, ord)),
       lacking AS (
         SELECT f.ord, a.id, row_number() OVER (PARTITION BY f.ord ORDER BY a.created_at, a.id) AS n
           FROM fields f JOIN awaiting a
             ON coalesce(jsonb_typeof(a.data #> f.path), 'null') NOT IN ('string', 'number', 'boolean'))
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
    campaignIds: string[] | null = null,
  ): Promise<string[]> {
    const { rows } = await sqlExecutor(this.dataSource, null).query<{ id: string }>(
      `SELECT id::text AS id FROM targets
        WHERE organization_id = $1 AND input_data #>> $2::text[] = $3
          AND jsonb_typeof(input_data #> $2::text[]) IN ('string', 'number', 'boolean')
          AND ($5::uuid[] IS NULL OR campaign_id = ANY($5::uuid[]))
        ORDER BY last_call_date DESC NULLS LAST, created_at DESC, id
        LIMIT $4`,
      [organizationId, path, value, limit, campaignIds],
    );
    return rows.map((r) => r.id);
  }

  async mergeInputData(
    organizationId: string,
    id: string,
    patch: Record<string, unknown>,
    options: InputDataMerge,
  ): Promise<Target | null> {
    return this.events.relay(null, async (tx) => {
      // The attribution rides in the statement (no transaction of its own unless listeners need one):
      // the trigger reads it at the statement's end.
      const { rows } = await sqlExecutor(this.dataSource, tx).query<TargetRow>(
        `UPDATE targets SET input_data = input_data || $3::jsonb, updated_at = $5,
                time_zone = CASE WHEN $13::boolean THEN $14::text ELSE time_zone END,
                scheduled_time = CASE WHEN $13::boolean AND status = 'Scheduled'
                                      THEN least(scheduled_time, $5) ELSE scheduled_time END,
                hold_rule = CASE WHEN $13::boolean THEN NULL ELSE hold_rule END,
                hold_reason = CASE WHEN $13::boolean THEN NULL ELSE hold_reason END
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
           DELETE FROM targets t USING locked l, ${CAUSE_FROM(5)}
           WHERE t.id = l.id AND t.organization_id = $1 AND NOT (l.status = ANY($4::text[]))
           RETURNING t.id)
         SELECT l.id, NOT (l.status = ANY($4::text[])) AS deleted FROM locked l`,
        [organizationId, campaignId, ids, IN_FLIGHT_STATUSES, ...causeParams(cause, now)],
      );
      return {
        deleted: rows.filter((r) => r.deleted).map((r) => r.id),
        inFlight: rows.filter((r) => !r.deleted).map((r) => r.id),
      };
    });
  }

  async foldCounts(): Promise<FoldReport> {
    return foldDue(targetCountFolders(sqlExecutor(this.dataSource, null)));
  }

  async list(
    organizationId: string,
    campaignId: string,
    filter: TargetListFilter,
    page: TargetPageRequest,
  ): Promise<TargetPage> {
    // One snapshot for the count and the page, so page_count always agrees with the rows listed.
    // Read only: the count rows it sums are folded by the folding job (target-count-folding.ts).
    return this.dataSource.transaction('REPEATABLE READ', async (manager): Promise<TargetPage> => {
      const sql = sqlExecutor(this.dataSource, { manager } as TypeOrmTx);
      // The counters are kept per organization: a campaign of another organization counts none,
      // and once they count some, the campaign is the caller's and the reads below name only the
      // campaign (index-only). The page's fetch checks the organization again all the same.
      const counted = await this.countFromDeltas(sql, organizationId, campaignId, filter.status);
      if (counted.campaignTotal === 0) return { targets: [], next: null, total: 0 };
      if (filter.externalId !== undefined || filter.search !== undefined)
        return this.withExternalId(sql, organizationId, campaignId, filter, page);
      return filter.lastCallFrom === undefined && filter.lastCallTo === undefined
        ? this.inCreationOrder(sql, organizationId, campaignId, filter, page)
        : this.withLastCall(sql, organizationId, campaignId, filter, page, counted);
    });
  }

  /**
   * No filter, a status, a creation window, or a status and a window: the list is a stretch of the
   * (status's) creation order. Its ends are places in that order (the spans before a bound, plus the
   * targets of the span it cuts, counted), and a page starts in the span holding its first target.
   * Reads the campaign's spans (about one per thousand targets) and at most a span's index entries
   * per bound and per page.
   */
  private async inCreationOrder(
    sql: SqlExecutor,
    organizationId: string,
    campaignId: string,
    filter: TargetListFilter,
    page: TargetPageRequest,
  ): Promise<TargetPage> {
    const status = filter.status ?? null;
    const { spans, total: ofStatus } = await positionSpans(sql, campaignId, status);
    // Bounds are inclusive to the millisecond: the window ends one millisecond after `to`.
    const to = filter.createdTo ? new Date(filter.createdTo.getTime() + 1) : undefined;
    const [before, through] = await this.placesOf(sql, campaignId, status, spans, [
      filter.createdFrom,
      to,
    ]);
    const total = Math.max(0, (to ? through : ofStatus) - (filter.createdFrom ? before : 0));
    const first = filter.createdFrom ? before : 0;
    if ('after' in page) {
      const { where, params } = listConditions(campaignId, filter);
      return this.afterCursor(sql, organizationId, where, params, page, total);
    }
    if (page.offset >= total) return { targets: [], next: null, total };
    const take = Math.min(page.limit, total - page.offset);
    // Inside the list, so inside the spans: never null.
    const start = startAmong(spans, 'ASC', first + page.offset, take)!;
    const { where, params } = listConditions(campaignId, { status: filter.status });
    params.push(start.from);
    where.push(`created_at ${start.side} to_timestamp($${params.length}::bigint)`);
    const rows = await this.fetchPage(sql, organizationId, where, params, {
      order: start.order,
      skip: start.skip,
      take,
    });
    return { ...pageOf(rows, page.limit, page.offset + page.limit < total), total };
  }

  /**
   * The places of `instants` in the (status's) creation order: the targets of the spans that end by
   * each, plus those of the span it cuts created before it (an index range inside one span), all in
   * one statement. An undefined instant's place is 0 (unused).
   */
  private async placesOf(
    sql: SqlExecutor,
    campaignId: string,
    status: string | null,
    spans: Span[],
    instants: (Date | undefined)[],
  ): Promise<number[]> {
    const args: unknown[] = [campaignId];
    const statusCondition = status === null ? '' : `AND ${STATUS_IS(`$${args.push(status)}`)}`;
    const cuts: string[] = [];
    const places = instants.map((instant) => {
      if (!instant) {
        cuts.push('0');
        return 0;
      }
      const second = instant.getTime() / 1000;
      const cut = spanHolding(spans, second);
      if (cut && Number(cut.from) < second) {
        args.push(cut.from.toString(), instant);
        cuts.push(
          `(SELECT count(*) FROM targets WHERE campaign_id = $1 ${statusCondition}
              AND created_at >= to_timestamp($${args.length - 1}::bigint) AND created_at < $${args.length})`,
        );
      } else cuts.push('0');
      return targetsBefore(spans, second);
    });
    if (cuts.every((c) => c === '0')) return places;
    const { rows } = await sql.query<Record<string, string>>(
      `SELECT ${cuts.map((c, i) => `${c} AS cut${i}`).join(', ')}`,
      args,
    );
    return places.map((p, i) => p + Number(rows[0][`cut${i}`]));
  }

  /**
   * An external id names at most one target of the campaign, and a search few: counted and listed with
   * the rest of the filter (the search through the name and phone indexes).
   */
  private async withExternalId(
    sql: SqlExecutor,
    organizationId: string,
    campaignId: string,
    filter: TargetListFilter,
    page: TargetPageRequest,
  ): Promise<TargetPage> {
    const { where, params } = listConditions(campaignId, filter);
    const total = await this.countMatching(sql, where, params);
    if ('after' in page) return this.afterCursor(sql, organizationId, where, params, page, total);
    if (page.offset >= total) return { targets: [], next: null, total };
    const rows = await this.fetchPage(sql, organizationId, where, params, {
      order: 'ASC',
      skip: page.offset,
      take: page.limit,
    });
    return { ...pageOf(rows, page.limit, page.offset + page.limit < total), total };
  }

  /** A cursor's page: the walk starts just after the cursor's target, in any filter's own index. */
  private async afterCursor(
    sql: SqlExecutor,
    organizationId: string,
    where: string[],
    params: unknown[],
    page: { limit: number; after: CreationPosition },
    total: number,
    walked = false,
  ): Promise<TargetPage> {
    const args = [...params, String(page.after.createdMicros), page.after.id];
    const conditions = [
      ...where,
      `(created_at, id) > (${EPOCH_PLUS_MICROS(`$${args.length - 1}`)}, $${args.length}::uuid)`,
    ];
    // One more tells whether another page follows.
    const rows = await this.fetchPage(sql, organizationId, conditions, args, {
      order: 'ASC',
      skip: 0,
      take: page.limit + 1,
      walked,
    });
    return { ...pageOf(rows, page.limit, rows.length > page.limit), total };
  }

  /**
   * Deferred join: the page's ids come from an index-only walk, and only those rows are read from the
   * table. `sorted` reads every match and sorts it (an expression of created_at, in the same order,
   * keeps the planner from walking the creation order for the ORDER BY). Rows come back ascending.
   *
   * `walked`: a walk of the creation order that filters on last-call bounds, whatever the planner
   * estimates (sorting, JIT and parallel workers are turned off for the rest of the list's
   * transaction; the page is its last statement): the list chose it from the counts, which are
   * exact. The planner's estimates are not: a two-sided last-call window on the filtered expression
   * is estimated at 0.5% of the rows (its default for a range with no statistics), below the page's
   * offset, and it read every row of the table and sorted the matches (5,150 pages read against 315
   * for the walk, 100,000 targets, settled; linear in the table). A walk with no last-call bound
   * needs no such turn (its predicates are the index's own: estimated low, the ordered index is the
   * cheapest plan still).
   */
  private async fetchPage(
    sql: SqlExecutor,
    organizationId: string,
    where: string[],
    params: unknown[],
    walk: { order: 'ASC' | 'DESC'; skip: number; take: number; sorted?: boolean; walked?: boolean },
  ): Promise<PageRow[]> {
    const args = [...params, walk.take, String(walk.skip), organizationId];
    const n = args.length;
    const { order } = walk;
    const sortedBy = walk.sorted ? `created_at + interval '0'` : 'created_at';
    // A walk also runs without JIT and parallel workers: its estimates (the bounds' matches, a
    // walk the planner would not choose) put its cost over `jit_above_cost`, and a page of 10 then
    // spent 17 of its 58 ms compiling and more starting two workers (1,000,000 targets, settled).
    if (walk.walked)
      await sql.query<NoRows>(
        `SELECT set_config('enable_sort', 'off', true), set_config('jit', 'off', true),
                set_config('max_parallel_workers_per_gather', '0', true)`,
      );
    const { rows } = await sql.query<PageRow>(
      `SELECT ${columnList(TARGET_COLUMNS, 't')}, p.position_micros FROM (
         SELECT id, created_at, ${MICROS_OF('created_at')} AS position_micros FROM targets
         WHERE ${where.join(' AND ')}
         ORDER BY ${sortedBy} ${order}, id ${order} LIMIT $${n - 2} OFFSET $${n - 1}) p
       JOIN targets t ON t.id = p.id AND t.organization_id = $${n}
       ORDER BY p.created_at ${order}, p.id ${order}`,
      args,
    );
    if (order === 'DESC') rows.reverse();
    return rows;
  }

  /**
   * Last-call bounds, alone or with a status, a creation window or both: the matches per creation
   * block, from the last-call counts (target-last-call-counts.ts; a status's own cells), are the
   * count and where a page starts; a window keeps the blocks inside it and counts the matches of the
   * two it cuts.
   */
  private async withLastCall(
    sql: SqlExecutor,
    organizationId: string,
    campaignId: string,
    filter: TargetListFilter,
    page: TargetPageRequest,
    counted: { called: number; campaignTotal: number },
  ): Promise<TargetPage> {
    const matches =
      counted.called === 0 ? [] : await this.lastCallMatchesInWindow(sql, campaignId, filter);
    const total = matches.reduce((sum, b) => sum + b.targets, 0);
    if ('after' in page) {
      // Many matches (an eighth of the campaign or more) are walked from the cursor in creation
      // order; fewer are left to the planner, which may read them from the last-call index.
      const walked = total > fewMatchesOf(counted.campaignTotal, 100_000);
      const { where, params } = listConditions(campaignId, filter, walked ? 'filtered' : 'indexed');
      return this.afterCursor(sql, organizationId, where, params, page, total, walked);
    }
    if (page.offset >= total) return { targets: [], next: null, total };
    // From whichever end is nearer.
    const rest = total - page.offset;
    const take = Math.min(page.limit, rest);
    const order = page.offset > rest ? 'DESC' : 'ASC';
    // Inside the list, so inside the blocks: never null.
    const start = startAmong(matches, order, order === 'DESC' ? rest - take : page.offset, take)!;
    // Few matches may still lie far apart (early targets called again among the latest calls): a
    // walk between them crosses every target (of the status) created in between. Sorted when that
    // is more than twice the matches (read from the last-call index, from the same start: the page
    // is the same).
    const stretch = spanAmong(matches, order, order === 'DESC' ? rest - take : page.offset, take);
    const sorted =
      total <= fewMatchesOf(counted.campaignTotal, 100_000) &&
      stretch !== null &&
      (await createdAround(sql, campaignId, filter.status ?? null, stretch)) > 2 * total;
    // A walk keeps the bounds out of the planner's reach: estimating a bound's matches low, it would
    // read them all from the last-call index and sort them (100,000 for a tenth of the calls).
    const { where, params } = listConditions(campaignId, filter, sorted ? 'indexed' : 'filtered');
    params.push(start.from);
    where.push(`created_at ${start.side} to_timestamp($${params.length}::bigint)`);
    const rows = await this.fetchPage(sql, organizationId, where, params, {
      order: start.order,
      skip: start.skip,
      take,
      sorted,
      walked: !sorted,
    });
    return { ...pageOf(rows, page.limit, page.offset + page.limit < total), total };
  }

  /**
   * The matches of last-call bounds per creation block, within a creation window if one is given:
   * blocks outside it are left out, and the two it cuts are counted from the creation index (a
   * block's entries at most).
   */
  private async lastCallMatchesInWindow(
    sql: SqlExecutor,
    campaignId: string,
    filter: TargetListFilter,
  ): Promise<Span[]> {
    const until = filter.lastCallTo ? new Date(filter.lastCallTo.getTime() + 1) : null;
    const matched = await lastCallMatchesPerBlock(
      sql,
      campaignId,
      filter.status ?? null,
      filter.lastCallFrom ?? null,
      until,
    );
    if (!filter.createdFrom && !filter.createdTo) return matched;
    const blocks = matched;
    const lo = filter.createdFrom ? filter.createdFrom.getTime() / 1000 : -Infinity;
    const hi = filter.createdTo ? (filter.createdTo.getTime() + 1) / 1000 : Infinity;
    const inside = blocks.filter((b) => Number(b.until) > lo && Number(b.from) < hi);
    const cut = inside.filter((b) => Number(b.from) < lo || Number(b.until) > hi);
    if (cut.length > 0) {
      // A cut block's matches inside the window, from the creation index: the part inside it, or,
      // when the window holds the larger part of the block (by time), the parts outside it taken
      // from the block's matches (exact, from the cells). At most half a block's entries are read
      // per cut, as for a cut stretch of last calls.
      const { where, params } = listConditions(
        campaignId,
        { ...filter, createdFrom: undefined, createdTo: undefined },
        'filtered',
      );
      const low = filter.createdFrom ?? null;
      const high = filter.createdTo ? new Date(filter.createdTo.getTime() + 1) : null;
      // Per cut block: an SQL sum, and whether it is the block's matches (taken from them) or not.
      const sums = cut.map((b) => {
        const [from, until] = [new Date(Number(b.from) * 1000), new Date(Number(b.until) * 1000)];
        const count = (rangeFrom: Date, rangeUntil: Date) => {
          params.push(rangeFrom, rangeUntil);
          return `(SELECT count(*) FROM targets WHERE ${where.join(' AND ')}
                      AND created_at >= $${params.length - 1}::timestamptz
                      AND created_at < $${params.length}::timestamptz)::int`;
        };
        const start = low && low > from ? low : from;
        const end = high && high < until ? high : until;
        const insideMs = end.getTime() - start.getTime();
        if (insideMs <= until.getTime() - from.getTime() - insideMs)
          return { sql: count(start, end), ofBlock: false };
        const outside = [
          ...(start > from ? [count(from, start)] : []),
          ...(end < until ? [count(end, until)] : []),
        ];
        return { sql: `0 - ${outside.join(' - ')}`, ofBlock: true };
      });
      const { rows } = await sql.query<{ n: number[] }>(
        `SELECT ARRAY[${sums.map((x) => x.sql).join(', ')}] AS n`,
        params,
      );
      cut.forEach((b, i) => (b.targets = (sums[i].ofBlock ? b.targets : 0) + rows[0].n[i]));
    }
    return inside.filter((b) => b.targets > 0);
  }

  /**
   * Exact, from the counters the targets triggers keep (see target-count-deltas.ts): the targets of
   * `status` (all when undefined) with a last call, and the whole campaign's (a status's own count
   * comes from its position spans).
   */
  private async countFromDeltas(
    sql: SqlExecutor,
    organizationId: string,
    campaignId: string,
    status: string | undefined,
  ): Promise<{ called: number; campaignTotal: number }> {
    // One pass over the campaign's rows, index-only, no grouping. called: targets with a
    // last_call_date.
    const { rows } = await sql.query<{ called: number; campaign_total: number }>(
      `SELECT coalesce(sum(delta) FILTER (WHERE called AND ($3::text IS NULL OR status = $3)), 0)::int
                AS called,
              coalesce(sum(delta), 0)::int AS campaign_total
         FROM target_count_deltas WHERE campaign_id = $1 AND organization_id = $2`,
      [campaignId, organizationId, status ?? null],
    );
    return { called: rows[0].called, campaignTotal: rows[0].campaign_total };
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
}

/**
 * A last-call bound's few matches among `of` targets: at most an eighth of them (a walk of the
 * creation order would cross eight entries or more per match) and at most `atMost`. A page sorts up
 * to 100,000 matches (about 15 ms at 1M targets, measured; a walk across the campaign's middle
 * costs 35-60 ms).
 */
function fewMatchesOf(of: number, atMost: number): number {
  return Math.min(atMost, Math.floor(of / 8));
}

/** A page's rows: a target's columns and its place in the creation order. */
type PageRow = TargetRow & { position_micros: string };

/** A page from its rows (ascending), `more` when another page follows. */
function pageOf(rows: PageRow[], limit: number, more: boolean): Omit<TargetPage, 'total'> {
  const listed = rows.slice(0, limit);
  const last = listed[listed.length - 1];
  return {
    targets: listed.map(targetFromRow),
    next: more && last ? { createdMicros: Number(last.position_micros), id: last.id } : null,
  };
}

/**
 * A list's conditions, `$1` the campaign: only the filters given become conditions, so the planner
 * sees plain predicates for the indexes. `lastCall` 'filtered' writes the last-call bounds on an
 * expression no index has, for a walk of the creation order that filters on them. The status's value
 * is hidden from the planner in every statement, pages as counts (STATUS_IS says why).
 */
function listConditions(
  campaignId: string,
  filter: TargetListFilter,
  lastCall: 'indexed' | 'filtered' = 'indexed',
): { where: string[]; params: unknown[] } {
  const params: unknown[] = [campaignId];
  const where = ['campaign_id = $1'];
  const add = (condition: string, value: unknown) => {
    params.push(value);
    where.push(condition.replace('?', `$${params.length}`));
  };
  if (filter.status !== undefined) add(STATUS_IS('?'), filter.status);
  // Not in the counters either: counted through the (campaign_id, external_id) unique index.
  if (filter.externalId !== undefined) add('external_id = ?', filter.externalId);
  if (filter.createdFrom) add('created_at >= ?', filter.createdFrom);
  // Bounds are inclusive to the millisecond (JS dates); rows carry microseconds (see date-bounds).
  if (filter.createdTo)
    add("created_at < ?::timestamptz + interval '1 millisecond'", filter.createdTo);
  const lastCallDate =
    lastCall === 'indexed' ? 'last_call_date' : "(last_call_date + interval '0')";
  if (filter.lastCallFrom) add(`${lastCallDate} >= ?`, filter.lastCallFrom);
  if (filter.lastCallTo) add(`${lastCallDate} < ${LAST_CALL_TO}`, filter.lastCallTo);
  if (filter.search) where.push(searchCondition(filter.search, params));
  return { where, params };
}

/**
 * The search as OR-ed conditions, each one an index's (`targets_campaign_first_name_idx`,
 * `..._last_name_idx`, the external id's unique index, `targets_campaign_phone_idx`): the planner
 * combines them in a bitmap, never reading the campaign's other targets.
 */
function searchCondition(search: TargetSearch, params: unknown[]): string {
  const param = (value: unknown) => `$${params.push(value)}`;
  const FIRST = "lower(patient->>'first_name')";
  const LAST = "lower(patient->>'last_name')";
  const prefix = (word: string) => param(`${word.replace(/[\\%_]/g, (c) => `\\${c}`)}%`);
  const branches = [`external_id = ${param(search.externalId)}`];
  if (search.phoneNumber !== null) branches.push(`phone_number = ${param(search.phoneNumber)}`);
  const halves = nameHalves(search.words);
  if (halves) {
    const [a, b] = [prefix(halves[0]), prefix(halves[1])];
    branches.push(
      `(${FIRST} LIKE ${a} AND ${LAST} LIKE ${b})`,
      `(${LAST} LIKE ${a} AND ${FIRST} LIKE ${b})`,
    );
  } else if (search.words.length === 1) {
    const word = prefix(search.words[0]);
    branches.push(`${FIRST} LIKE ${word}`, `${LAST} LIKE ${word}`);
  }
  return `(${branches.join(' OR ')})`;
}

/** The exclusive end of an inclusive last-call upper bound (bounds are inclusive to the millisecond). */
const LAST_CALL_TO = "?::timestamptz + interval '1 millisecond'";

/** created_at in whole microseconds since the epoch, exact (extract gives numeric). */
export const MICROS_OF = (column: string) => `(extract(epoch FROM ${column}) * 1000000)::bigint`;
/** The inverse of MICROS_OF for a bigint parameter. */
export const EPOCH_PLUS_MICROS = (param: string) =>
  `(timestamptz 'epoch' + ${param}::bigint * interval '1 microsecond')`;
