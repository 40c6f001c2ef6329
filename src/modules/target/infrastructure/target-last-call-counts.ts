import { NoRows, SqlExecutor } from '../../../database/sql.js';
import { MERGE_STRETCHES, STATUS_IS } from './target-position-counts.js';
import { Span } from './target-walk.js';

/**
 * `target_last_call_counts`: how many of a campaign's called targets of a status were created in a
 * stretch of creation time [created_from, created_until) and last called in a stretch of last-call
 * time [called_from, called_until). The targets triggers (`targets.triggers.sql.ts`) append cells of
 * a second of creation by a minute of last call; compaction folds them into creation blocks of about
 * LAST_CALL_BLOCK_TARGETS called targets by stretches of about LAST_CALL_STRETCH_CALLS last calls,
 * the same for every status, whatever the campaign's shape (a bulk load called in minutes, or
 * patients fed one at a time and called, retried and recalled over months).
 *
 * A list with last-call bounds reads the cells (of its status, if it has one): a bound cuts at most
 * one stretch, whose calls on the smaller side of the bound (by time) are read from
 * `targets_campaign_last_call_idx` (or the status's); every other stretch lies inside the bounds or
 * outside them. That gives the matches per creation block, exactly, so a page starts in the block
 * holding its first match and walks at most a block of index entries.
 *
 * The sizes weigh the cells a list reads (about a thousand, times the statuses of called targets, at
 * 1,000,000 targets fed one every ~10 s over four months, most of them called) against the index
 * entries a cut stretch and a block's walk read (tens of thousands, index-only): both cost a few
 * milliseconds. Blocks count called targets, and a walk crosses the uncalled ones created among
 * them too: a campaign that calls few of its targets walks more entries per block.
 *
 * Cells appended after a compaction name a second and a minute inside a block and a stretch (or
 * beyond them). Readers merge overlapping stretches on each axis, as for the position counts.
 * Compaction never splits a stretch, and a folded stretch does not grow: a target's last call is
 * when it was called, so new calls land in the newest stretch, and older ones only lose calls (to
 * targets called again) or see their calls change status.
 */
export const LAST_CALL_BLOCK_TARGETS = 16384;
export const LAST_CALL_STRETCH_CALLS = 16384;

const CELL_COLUMNS = 'created_from, created_until, called_from, called_until, status, delta';

/**
 * From `rows` (created_from, created_until, called_from, called_until, status, delta): `merged`, the same rows
 * with the creation block (`block_from`, `block_until`) and the last-call stretch (`stretch_from`,
 * `stretch_until`) each lies in, overlapping stretches merged on each axis. Windows only.
 */
const MERGED = (rows: string) => `
  ${MERGE_STRETCHES(rows, CELL_COLUMNS, 'created_from', 'created_until', 'block_from')},
  ${MERGE_STRETCHES('block_from_merged', `${CELL_COLUMNS}, block_from`, 'called_from', 'called_until', 'stretch_from')},
  merged AS (
    SELECT ${CELL_COLUMNS}, block_from, stretch_from,
           max(created_until) OVER (PARTITION BY block_from) AS block_until,
           max(called_until) OVER (PARTITION BY stretch_from) AS stretch_until
      FROM stretch_from_merged)`;

/**
 * The campaign's called targets (of `status`, or all) last called within [from, until), per creation
 * block (ascending, those with none left out): the cells of the stretches inside the bounds, plus the
 * calls of the stretches the bounds cut, read from the targets (the smaller side of each cut, by
 * time). Two statements, in the caller's snapshot. The blocks and stretches are those of the cells
 * read: a status's merge alone.
 */
export async function lastCallMatchesPerBlock(
  sql: SqlExecutor,
  campaignId: string,
  status: string | null,
  from: Date | null,
  until: Date | null,
): Promise<Span[]> {
  const lo = from ?? '-infinity';
  const hi = until ?? 'infinity';
  const ofStatus = status === null ? '' : 'AND status = $4';
  // Three kinds of rows: a block with its matches in the stretches inside the bounds; a stretch the
  // bounds cut; and a block's calls in a cut stretch.
  const { rows } = await sql.query<{
    kind: 'block' | 'cut' | 'share';
    from_second: string | null;
    until_second: string | null;
    n: number;
    stretch_from: Date | null;
    stretch_until: Date | null;
  }>(
    `WITH ${MERGED(`target_last_call_counts WHERE campaign_id = $1 ${ofStatus}`)},
     cut AS (
       SELECT * FROM merged
        WHERE stretch_from < $3 AND stretch_until > $2 AND (stretch_from < $2 OR stretch_until > $3))
     SELECT 'block' AS kind, extract(epoch FROM block_from)::bigint AS from_second,
            extract(epoch FROM max(block_until))::bigint AS until_second,
            coalesce(sum(delta) FILTER (WHERE stretch_from >= $2 AND stretch_until <= $3), 0)::int AS n,
            NULL::timestamptz AS stretch_from, NULL::timestamptz AS stretch_until
       FROM merged GROUP BY block_from
     UNION ALL
     SELECT DISTINCT 'cut', NULL::bigint, NULL::bigint, 0, stretch_from, stretch_until FROM cut
     UNION ALL
     SELECT 'share', extract(epoch FROM block_from)::bigint, NULL, sum(delta)::int, stretch_from, NULL
       FROM cut GROUP BY block_from, stretch_from
     ORDER BY 2`,
    [campaignId, lo, hi, ...(status === null ? [] : [status])],
  );
  const blocks: Span[] = [];
  const blockAt = new Map<string, Span>();
  const cuts: { from: Date; until: Date; shares: { block: Span; n: number }[] }[] = [];
  for (const r of rows) {
    if (r.kind === 'block') {
      const block = { from: BigInt(r.from_second!), until: BigInt(r.until_second!), targets: r.n };
      blocks.push(block);
      blockAt.set(r.from_second!, block);
    } else if (r.kind === 'cut')
      cuts.push({ from: r.stretch_from!, until: r.stretch_until!, shares: [] });
  }
  for (const r of rows)
    if (r.kind === 'share')
      cuts
        .find((c) => c.from.getTime() === r.stretch_from!.getTime())!
        .shares.push({ block: blockAt.get(r.from_second!)!, n: r.n });
  if (cuts.length > 0) {
    // Each cut stretch's calls within the bounds, placed in their blocks by creation time: read
    // from the (status's) last-call index, or, when the bounds hold the larger part of the stretch
    // (by time), its calls outside them read and taken from the stretch's calls per block.
    const args: unknown[] = [campaignId, blocks.map((b) => b.from.toString())];
    const cutOfStatus = status === null ? '' : `AND ${STATUS_IS(`$${args.push(status)}`)}`;
    // One range scan of the index per range read (an OR of ranges may be planned as one scan of
    // the campaign's whole creation index instead); `sign` adds or takes away.
    const ranges: string[] = [];
    const read = (rangeFrom: Date, rangeUntil: Date, sign: 1 | -1) => {
      args.push(rangeFrom, rangeUntil);
      ranges.push(
        `SELECT width_bucket(extract(epoch FROM created_at), $2::float8[]) AS block, ${sign} AS sign
           FROM targets WHERE campaign_id = $1 ${cutOfStatus}
            AND last_call_date >= $${args.length - 1} AND last_call_date < $${args.length}`,
      );
    };
    const low = from?.getTime() ?? -Infinity;
    const high = until?.getTime() ?? Infinity;
    for (const cut of cuts) {
      const [a, b] = [cut.from.getTime(), cut.until.getTime()];
      const inside = Math.min(b, high) - Math.max(a, low);
      if (inside <= b - a - inside) {
        read(new Date(Math.max(a, low)), new Date(Math.min(b, high)), 1);
        continue;
      }
      for (const { block, n } of cut.shares) block.targets += n;
      if (low > a) read(cut.from, from!, -1);
      if (high < b) read(until!, cut.until, -1);
    }
    if (ranges.length > 0) {
      const placed = await sql.query<{ block: number; n: number }>(
        `SELECT block, sum(sign)::int AS n FROM (${ranges.join(' UNION ALL ')}) cut GROUP BY block`,
        args,
      );
      // width_bucket counts from 1; 0 is before the first block (no called target is).
      for (const { block, n } of placed.rows) if (block > 0) blocks[block - 1].targets += n;
    }
  }
  return blocks.filter((b) => b.targets > 0);
}

/**
 * Folds the campaign's cells into creation blocks of about LAST_CALL_BLOCK_TARGETS called targets by
 * stretches of about LAST_CALL_STRETCH_CALLS last calls (counting every status), a cell per block,
 * stretch and status, in one statement: consecutive merged stretches join until that many on each
 * axis. A reader sees the old cells or the folded ones; a concurrent compaction finds the cells gone
 * and adds nothing.
 */
export async function compactLastCallCounts(
  sql: SqlExecutor,
  campaignId: string,
  // The service's sizes; a test folds a small campaign into many blocks and stretches.
  sizes = { blockTargets: LAST_CALL_BLOCK_TARGETS, stretchCalls: LAST_CALL_STRETCH_CALLS },
): Promise<void> {
  await sql.query<NoRows>(
    `WITH gone AS (
       DELETE FROM target_last_call_counts WHERE campaign_id = $1 RETURNING ${CELL_COLUMNS}),
     ${MERGED('gone')},
     -- Each block's and stretch's calls; the calls before each (through it, less its own), by group.
     sized AS (
       SELECT status, delta, block_from, block_until, stretch_from, stretch_until,
              sum(delta) OVER (PARTITION BY block_from) AS block_calls,
              sum(delta) OVER (PARTITION BY stretch_from) AS stretch_calls
         FROM merged),
     grouped AS (
       SELECT status, delta, block_from, block_until, stretch_from, stretch_until,
              (sum(delta) OVER (ORDER BY block_from) - block_calls)::bigint / $2 AS block_group,
              (sum(delta) OVER (ORDER BY stretch_from) - stretch_calls)::bigint / $3 AS stretch_group
         FROM sized),
     bounded AS (
       SELECT status, delta,
              min(block_from) OVER (PARTITION BY block_group) AS created_from,
              max(block_until) OVER (PARTITION BY block_group) AS created_until,
              min(stretch_from) OVER (PARTITION BY stretch_group) AS called_from,
              max(stretch_until) OVER (PARTITION BY stretch_group) AS called_until
         FROM grouped)
     INSERT INTO target_last_call_counts (campaign_id, ${CELL_COLUMNS}, folded)
     SELECT $1, created_from, created_until, called_from, called_until, status, sum(delta), true
       FROM bounded
      GROUP BY created_from, created_until, called_from, called_until, status HAVING sum(delta) <> 0`,
    [campaignId, sizes.blockTargets, sizes.stretchCalls],
  );
}
