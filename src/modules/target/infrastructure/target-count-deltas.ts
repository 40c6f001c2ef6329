import { NoRows, SqlExecutor } from '../../../database/sql.js';

/**
 * `target_count_deltas`: the triggers on `targets` (`targets.triggers.sql.ts`) append each
 * statement's net change per (campaign, status, category, resolution, due minute, called = has a
 * last_call_date); a count is a sum.
 * Both readers (the target list and the campaign stats) fold a campaign's rows with
 * `compactTargetCounts` once they are due (`countsDue`). A compaction's rows are marked `folded`, so
 * a reader counts the rows appended since in the same pass that sums them, without grouping: a
 * campaign whose Scheduled targets are due over thousands of minutes keeps a folded row per minute.
 */

/**
 * Due once the rows appended since the last compaction are more than 64 and more than an eighth of
 * the folded ones: a compaction rewrites the folded rows, so it runs at most once per eighth of them
 * appended, and a reader reads at most an eighth more rows than a folded campaign has.
 */
export function countsDue(appended: number, folded: number): boolean {
  return appended > Math.max(64, folded / 8);
}

/** The columns a folded campaign has one row per (with the campaign and organization). */
export const TARGET_COUNT_GROUP = 'status, category, resolution, due_minute, called';

/**
 * Folds a campaign's count deltas into one row per group, in one statement: a reader sees either the
 * old rows or their sum, and a concurrent compaction finds the rows already gone and adds nothing.
 * The position and last-call counts (target-position-counts.ts, target-last-call-counts.ts) are
 * folded by the target list when it finds their own rows due: they grow at other rates.
 */
export async function compactTargetCounts(sql: SqlExecutor, campaignId: string): Promise<void> {
  await sql.query<NoRows>(
    `WITH gone AS (
       DELETE FROM target_count_deltas WHERE campaign_id = $1
       RETURNING organization_id, ${TARGET_COUNT_GROUP}, delta)
     INSERT INTO target_count_deltas
       (organization_id, campaign_id, ${TARGET_COUNT_GROUP}, delta, folded)
     SELECT organization_id, $1, ${TARGET_COUNT_GROUP}, sum(delta), true FROM gone
     GROUP BY organization_id, ${TARGET_COUNT_GROUP} HAVING sum(delta) <> 0`,
    [campaignId],
  );
}
