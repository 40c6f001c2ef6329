import { CountFolder, dueScopesSql } from '../../../common/persistence/count-folding.js';
import { SqlExecutor } from '../../../database/sql.js';
import { compactTargetCounts } from './target-count-deltas.js';
import { compactLastCallCounts } from './target-last-call-counts.js';
import { compactPositionCounts } from './target-position-counts.js';

/** A campaign-scoped count table's folder: its due campaigns by the one policy, and its fold. */
function campaignFolder(
  sql: SqlExecutor,
  table: string,
  fold: (sql: SqlExecutor, campaignId: string) => Promise<void>,
): CountFolder {
  return {
    table,
    dueScopes: async () =>
      (await sql.query<{ scope: string }>(dueScopesSql(table, 'campaign_id'))).rows.map(
        (r) => r.scope,
      ),
    fold: (campaignId) => fold(sql, campaignId),
  };
}

/** The target module's three count tables: the stats' counters, the list's positions and last calls. */
export function targetCountFolders(sql: SqlExecutor): CountFolder[] {
  return [
    campaignFolder(sql, 'target_count_deltas', compactTargetCounts),
    campaignFolder(sql, 'target_position_counts', compactPositionCounts),
    campaignFolder(sql, 'target_last_call_counts', (s, id) => compactLastCallCounts(s, id)),
  ];
}
