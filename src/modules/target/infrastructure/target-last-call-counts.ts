import { NoRows, SqlExecutor } from '../../../database/sql.js';
import { SPAN_STARTS } from './target-position-counts.js';
import { Span } from './target-walk.js';

/**
 * `target_last_call_counts`: how many of a campaign's called targets were created in a stretch of
 * creation time [created_from, created_until) and last called in a stretch of last-call time
 * [called_from, called_until). The targets triggers (`targets.triggers.sql.ts`) append cells of a
 * second of creation by a minute of last call; compaction folds them into creation blocks of about
 * LAST_CALL_BLOCK_TARGETS called targets by stretches of about LAST_CALL_STRETCH_CALLS last calls,
 * whatever the campaign's shape (a bulk load called in minutes, or patients fed one at a time and
 * called, retried and recalled over months).
 *
 * A list with last-call bounds reads every cell: a bound cuts at most one stretch, whose calls on the
 * bound's side are read from `targets_campaign_last_call_idx`; every other stretch lies inside the
 * bounds or outside them. That gives the matches per creation block, exactly, so a page starts in
 * the block holding its first match and walks at most a block of index entries.
 *
 * Cells appended after a compaction name a second and a minute inside a block and a stretch (or
 * beyond them). Readers merge overlapping stretches on each axis, as for the position counts.
 */
export const LAST_CALL_BLOCK_TARGETS = 8192;
export const LAST_CALL_STRETCH_CALLS = 4096;

/**
 * From `rows` (created_from, created_until, called_from, called_until, delta): the same rows with
 * `block_from` and `stretch_from`, the starts of the disjoint creation block and last-call stretch
 * each belongs to.
 */
const MERGED = (rows: string) => `
  cells AS (SELECT created_from, created_until, called_from, called_until, delta FROM ${rows}),
  ${SPAN_STARTS('cells', 'created_from', 'created_until', 'block_from')},
  ${SPAN_STARTS('cells', 'called_from', 'called_until', 'stretch_from')},
  merged AS (
    SELECT c.created_from, c.created_until, c.called_from, c.called_until, c.delta, b.block_from,
           s.stretch_from
      FROM cells c JOIN block_from_of b USING (created_from) JOIN stretch_from_of s USING (called_from)),
  blocks AS (SELECT block_from, max(created_until) AS block_until FROM merged GROUP BY block_from),
  stretches AS (
    SELECT stretch_from, max(called_until) AS stretch_until FROM merged GROUP BY stretch_from)`;

/**
 * The campaign's called targets last called within [from, until), per creation block (ascending,
 * those with none left out): the cells of the stretches inside the bounds, plus the calls of the
 * stretches the bounds cut, read from the targets. Two statements, in the caller's snapshot.
 */
export async function lastCallMatchesPerBlock(
  sql: SqlExecutor,
  campaignId: string,
  from: Date | null,
  until: Date | null,
): Promise<{ blocks: Span[]; compact: boolean }> {
  const lo = from ?? '-infinity';
  const hi = until ?? 'infinity';
  // Three kinds of rows: a block with its matches in the stretches inside the bounds; a stretch the
  // bounds cut, as the part of it inside them; and whether a compaction is due: many small blocks or
  // stretches, or many cells inside them, appended since the last one.
  const { rows } = await sql.query<{
    kind: 'block' | 'cut' | 'due';
    from_second: string | null;
    until_second: string | null;
    n: number;
    cut_from: Date | null;
    cut_until: Date | null;
  }>(
    `WITH ${MERGED('target_last_call_counts WHERE campaign_id = $1')},
     per_block AS (
       SELECT m.block_from, sum(m.delta) AS inside FROM merged m JOIN stretches s USING (stretch_from)
        WHERE s.stretch_from >= $2 AND s.stretch_until <= $3 GROUP BY m.block_from),
     block_sizes AS (SELECT block_from, sum(delta) AS n FROM merged GROUP BY block_from),
     stretch_sizes AS (SELECT stretch_from, sum(delta) AS n FROM merged GROUP BY stretch_from)
     SELECT 'block' AS kind, extract(epoch FROM b.block_from)::bigint AS from_second,
            extract(epoch FROM b.block_until)::bigint AS until_second,
            coalesce(p.inside, 0)::int AS n, NULL::timestamptz AS cut_from,
            NULL::timestamptz AS cut_until
       FROM blocks b LEFT JOIN per_block p USING (block_from)
     UNION ALL
     SELECT 'cut', NULL, NULL, 0, greatest(stretch_from, $2::timestamptz),
            least(stretch_until, $3::timestamptz)
       FROM stretches
      WHERE stretch_from < $3 AND stretch_until > $2 AND (stretch_from < $2 OR stretch_until > $3)
     UNION ALL
     SELECT 'due', NULL, NULL,
            ((SELECT count(*) FROM block_sizes WHERE n < $4 / 4) > 64
             OR (SELECT count(*) FROM stretch_sizes WHERE n < $5 / 4) > 64
             OR (SELECT count(*) FROM merged
                  WHERE created_from <> block_from OR called_from <> stretch_from) > 1024)::int,
            NULL, NULL
     ORDER BY 2`,
    [campaignId, lo, hi, LAST_CALL_BLOCK_TARGETS, LAST_CALL_STRETCH_CALLS],
  );
  const blocks: Span[] = [];
  const cuts: [Date, Date][] = [];
  let due = false;
  for (const r of rows) {
    if (r.kind === 'block')
      blocks.push({ from: BigInt(r.from_second!), until: BigInt(r.until_second!), targets: r.n });
    else if (r.kind === 'cut') cuts.push([r.cut_from!, r.cut_until!]);
    else due = r.n === 1;
  }
  if (cuts.length > 0 && blocks.length > 0) {
    // The cut stretches' calls within the bounds, each placed in its block by its creation time.
    const args: unknown[] = [campaignId, blocks.map((b) => b.from.toString())];
    const ranges = cuts.map(([lo, hi]) => {
      args.push(lo, hi);
      return `(last_call_date >= $${args.length - 1} AND last_call_date < $${args.length})`;
    });
    const placed = await sql.query<{ block: number; n: number }>(
      `SELECT width_bucket(extract(epoch FROM created_at), $2::float8[]) AS block, count(*)::int AS n
         FROM targets WHERE campaign_id = $1 AND (${ranges.join(' OR ')})
        GROUP BY 1`,
      args,
    );
    // width_bucket counts from 1; 0 is before the first block (no called target is).
    for (const { block, n } of placed.rows) if (block > 0) blocks[block - 1].targets += n;
  }
  return { blocks: blocks.filter((b) => b.targets > 0), compact: due };
}

/**
 * Folds the campaign's cells into creation blocks of about LAST_CALL_BLOCK_TARGETS called targets by
 * stretches of about LAST_CALL_STRETCH_CALLS last calls, in one statement: consecutive merged
 * stretches join until that many on each axis. A reader sees the old cells or the folded ones; a
 * concurrent compaction finds the cells gone and adds nothing.
 */
export async function compactLastCallCounts(sql: SqlExecutor, campaignId: string): Promise<void> {
  await sql.query<NoRows>(
    `WITH gone AS (
       DELETE FROM target_last_call_counts WHERE campaign_id = $1
       RETURNING created_from, created_until, called_from, called_until, delta),
     ${MERGED('gone')},
     block_sizes AS (
       SELECT block_from, sum(delta) AS n FROM merged GROUP BY block_from),
     stretch_sizes AS (
       SELECT stretch_from, sum(delta) AS n FROM merged GROUP BY stretch_from),
     block_groups AS (
       SELECT b.block_from, b.block_until,
              coalesce(sum(s.n) OVER (ORDER BY b.block_from
                ROWS BETWEEN UNBOUNDED PRECEDING AND 1 PRECEDING), 0)::bigint / $2 AS grp
         FROM blocks b JOIN block_sizes s USING (block_from)),
     stretch_groups AS (
       SELECT t.stretch_from, t.stretch_until,
              coalesce(sum(s.n) OVER (ORDER BY t.stretch_from
                ROWS BETWEEN UNBOUNDED PRECEDING AND 1 PRECEDING), 0)::bigint / $3 AS grp
         FROM stretches t JOIN stretch_sizes s USING (stretch_from)),
     block_bounds AS (
       SELECT grp, min(block_from) AS lo, max(block_until) AS hi FROM block_groups GROUP BY grp),
     stretch_bounds AS (
       SELECT grp, min(stretch_from) AS lo, max(stretch_until) AS hi FROM stretch_groups GROUP BY grp)
     INSERT INTO target_last_call_counts
       (campaign_id, created_from, created_until, called_from, called_until, delta)
     SELECT $1, bb.lo, bb.hi, sb.lo, sb.hi, sum(m.delta)
       FROM merged m
       JOIN block_groups bg USING (block_from) JOIN block_bounds bb ON bb.grp = bg.grp
       JOIN stretch_groups sg USING (stretch_from) JOIN stretch_bounds sb ON sb.grp = sg.grp
      GROUP BY bb.lo, bb.hi, sb.lo, sb.hi HAVING sum(m.delta) <> 0`,
    [campaignId, LAST_CALL_BLOCK_TARGETS, LAST_CALL_STRETCH_CALLS],
  );
}
