import { NoRows, SqlExecutor } from '../../../database/sql.js';
import { Span } from './target-walk.js';

/**
 * `target_position_counts`: how many of a campaign's targets of each status were created in a
 * stretch of creation time [created_from, created_until). The targets triggers
 * (`targets.triggers.sql.ts`) append a second's rows per statement; compaction folds consecutive
 * stretches into blocks of about POSITION_BLOCK_TARGETS targets, whatever the campaign's shape (a
 * bulk load's second of 10,000 targets stays one stretch; a campaign fed one patient at a time gets
 * a block per thousand patients, not a row each). The folding job folds a campaign's rows when the
 * one policy of src/common/persistence/count-folding.ts finds them due.
 *
 * A row appended after a compaction may name a second inside a block (a target deleted, a status
 * moved). Readers merge overlapping stretches into disjoint spans (`SPANS`), so such a row counts in
 * its block's span until the next compaction folds it in. Every target lies in exactly one span, the
 * one whose stretch holds its created_at: a span's count is exact.
 */
export const POSITION_BLOCK_TARGETS = 1024;

/**
 * `<named>` from `rows`, a relation whose rows name stretches [lo, hi): the same rows (`columns`) with
 * `named`, the start of the disjoint span each lies in (overlapping stretches merged). A row starts a
 * span when no row with an earlier `lo` reaches past its `lo`; rows sharing a `lo` share the span.
 * Windows only, no join: each is one sort, and an aggregate whose frame starts at the first row is
 * carried along, never recomputed.
 */
export const MERGE_STRETCHES = (
  rows: string,
  columns: string,
  lo: string,
  hi: string,
  named: string,
) => `
  ${named}_marked AS (
    SELECT ${columns}, coalesce(${lo} >= max(${hi}) OVER (
             ORDER BY ${lo} ROWS BETWEEN UNBOUNDED PRECEDING AND 1 PRECEDING), true) AS starts
      FROM ${rows}),
  ${named}_merged AS (
    SELECT ${columns}, max(${lo}) FILTER (WHERE starts) OVER (ORDER BY ${lo}) AS ${named}
      FROM ${named}_marked)`;

/**
 * A status condition for the list's statements (its pages, and its counts of index entries over a
 * range of creation or last-call times): the status's value comes from a sub-select, so the planner
 * does not plan for it. Planned for the value, statistics taken before a bulk change of statuses
 * (autovacuum not yet, or never, run) give the status a row or two, and a partial index whose
 * predicate that status implies (`targets_retention_idx`, `targets_campaign_due_idx`), counted
 * empty at the last vacuum, looks cheapest: read whole, it holds every campaign's targets of those
 * statuses. A count took 534 ms against 27 ms from the status's own index (100,000 targets right
 * after the change); a first page of Failed targets read 234,570 entries of `targets_retention_idx`
 * (274 ms at 1,000,000) where the status's own index reads the page.
 */
export const STATUS_IS = (param: string) => `status = (SELECT ${param}::text)`;

const COUNT_COLUMNS = 'created_from, created_until, status, delta';

/**
 * From `rows` (created_from, created_until, status, delta): `in_spans`, the same rows with `span_from`,
 * the start of the disjoint span each belongs to.
 */
const SPANS = (rows: string) => `
  ${MERGE_STRETCHES(rows, COUNT_COLUMNS, 'created_from', 'created_until', 'span_from')},
  in_spans AS (SELECT ${COUNT_COLUMNS}, span_from FROM span_from_merged)`;

/** A campaign's spans. */
export interface PositionSpans {
  /** Ascending; `targets` counts the status asked for (all when none). */
  spans: Span[];
  /** The campaign's targets of that status. */
  total: number;
}

/**
 * The campaign's spans with the targets of `status` (every status when null) in each, in one
 * index-only read of its rows.
 */
export async function positionSpans(
  sql: SqlExecutor,
  campaignId: string,
  status: string | null,
): Promise<PositionSpans> {
  const { rows } = await sql.query<{
    from_second: string;
    until_second: string;
    targets: number;
  }>(
    `WITH ${SPANS(`target_position_counts WHERE campaign_id = $1`)}
     SELECT extract(epoch FROM span_from)::bigint AS from_second,
            extract(epoch FROM max(created_until))::bigint AS until_second,
            coalesce(sum(delta) FILTER (WHERE $2::text IS NULL OR status = $2), 0)::int AS targets
       FROM in_spans GROUP BY span_from ORDER BY span_from`,
    [campaignId, status],
  );
  let total = 0;
  const spans: Span[] = [];
  for (const r of rows) {
    if (r.targets === 0) continue;
    total += r.targets;
    spans.push({ from: BigInt(r.from_second), until: BigInt(r.until_second), targets: r.targets });
  }
  return { spans, total };
}

/**
 * About how many of the campaign's targets (of `status`, or all) were created in the stretch of
 * seconds [from, until): those of every row whose stretch overlaps it, so at least those created in
 * it and at most those of the spans it touches. One aggregate, no merge: what a walk across the
 * stretch would cross, to choose between walking and sorting.
 */
export async function createdAround(
  sql: SqlExecutor,
  campaignId: string,
  status: string | null,
  { from, until }: { from: bigint; until: bigint },
): Promise<number> {
  const { rows } = await sql.query<{ n: number }>(
    `SELECT coalesce(sum(delta), 0)::int AS n FROM target_position_counts
      WHERE campaign_id = $1 AND created_from < to_timestamp($3::bigint)
        AND created_until > to_timestamp($2::bigint) AND ($4::text IS NULL OR status = $4)`,
    [campaignId, from.toString(), until.toString(), status],
  );
  return rows[0].n;
}

/**
 * Folds the campaign's rows into blocks of about POSITION_BLOCK_TARGETS targets, one row per block
 * and status, in one statement: consecutive spans join a block until it holds that many (a span is
 * never split: its targets' times within it are not kept). A reader sees the old rows or the blocks;
 * a concurrent compaction finds the rows gone and adds nothing.
 */
export async function compactPositionCounts(sql: SqlExecutor, campaignId: string): Promise<void> {
  await sql.query<NoRows>(
    `WITH gone AS (
       DELETE FROM target_position_counts WHERE campaign_id = $1 RETURNING ${COUNT_COLUMNS}),
     ${SPANS('gone')},
     -- Each span's end and targets; the targets before it (through it, less its own), by block.
     sized AS (
       SELECT ${COUNT_COLUMNS}, span_from,
              max(created_until) OVER (PARTITION BY span_from) AS span_until,
              sum(delta) OVER (PARTITION BY span_from) AS span_targets
         FROM in_spans),
     blocked AS (
       SELECT ${COUNT_COLUMNS}, span_until,
              (sum(delta) OVER (ORDER BY span_from) - span_targets)::bigint / $2 AS block,
              span_from
         FROM sized),
     bounded AS (
       SELECT status, delta, min(span_from) OVER (PARTITION BY block) AS block_from,
              max(span_until) OVER (PARTITION BY block) AS block_until
         FROM blocked)
     INSERT INTO target_position_counts (campaign_id, created_from, created_until, status, delta, folded)
     SELECT $1, block_from, block_until, status, sum(delta), true FROM bounded
      GROUP BY block_from, block_until, status HAVING sum(delta) <> 0`,
    [campaignId, POSITION_BLOCK_TARGETS],
  );
}
