import { CountFolder, sqlCountFolder } from '../../../common/persistence/count-folding.js';
import { SqlExecutor } from '../../../database/sql.js';
import { compactTargetCounts } from './target-count-deltas.js';
import { compactLastCallCounts } from './target-last-call-counts.js';
import { compactPositionCounts } from './target-position-counts.js';

/** The target module's three count tables: the stats' counters, the list's positions and last calls. */
export function targetCountFolders(sql: SqlExecutor): CountFolder[] {
  const byCampaign = (
    table: string,
    fold: (sql: SqlExecutor, campaignId: string) => Promise<void>,
  ) => sqlCountFolder(sql, table, 'campaign_id', (campaignId) => fold(sql, campaignId));
  return [
    byCampaign('target_count_deltas', compactTargetCounts),
    byCampaign('target_position_counts', compactPositionCounts),
    byCampaign('target_last_call_counts', (s, id) => compactLastCallCounts(s, id)),
  ];
}
