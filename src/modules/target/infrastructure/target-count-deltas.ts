import { NoRows, SqlExecutor } from '../../../database/sql.js';

/**
 * `target_count_deltas`: the triggers on `targets` (`targets.triggers.sql.ts`) append each
 * statement's net change per (campaign, status, category, resolution, due minute, called = has a
 * last_call_date); a count is a sum. Both readers (the target list and the campaign stats) sum a
 * campaign's rows, folded or not; the folding job (target-count-folding.ts) folds them under the
 * one policy of src/common/persistence/count-folding.ts. A fold's rows are marked `folded`: a
 * campaign whose Scheduled targets are due over thousands of minutes keeps a folded row per minute.
 */

/** The columns a folded campaign has one row per (with the campaign and organization). */
export const TARGET_COUNT_GROUP = 'status, category, resolution, due_minute, called';

/**
 * Folds a campaign's count deltas into one row per group, in one statement: a reader sees either the
 * old rows or their sum, and a concurrent compaction finds the rows already gone and adds nothing.
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
