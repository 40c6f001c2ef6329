/**
 * A campaign's progress, from one `GET /api/v1/campaigns/{id}/stats` (exact counts by status, category
 * and resolution, calls in flight, connect rate, average call length, estimated end): one request per
 * refresh, whatever the number of statuses.
 */
import type { CampaignCallingClient } from '../../clients/typescript/src/index.js';
import { errorText, TARGET_STATUSES, type Schemas, type TargetStatus } from './api.js';

export type StatusCounts = Record<TargetStatus, number>;
export type CampaignStats = Schemas['CampaignStatsResponseDto'];

export interface Progress {
  counts: StatusCounts;
  total: number;
  /** Targets in a final state (Finished, Failed, To review). */
  done: number;
  /** The stats answer as read. */
  stats: CampaignStats;
}

export const FINAL_STATUSES: readonly TargetStatus[] = ['Finished', 'Failed', 'To review'];

export function progressOf(stats: CampaignStats): Progress {
  const byStatus = stats.targets.by_status as Record<string, number | undefined>;
  const counts = Object.fromEntries(
    TARGET_STATUSES.map((s) => [s, byStatus[s] ?? 0]),
  ) as StatusCounts;
  const done = FINAL_STATUSES.reduce((sum, s) => sum + counts[s], 0);
  return { counts, total: stats.targets.total, done, stats };
}

export async function loadProgress(
  client: CampaignCallingClient,
  campaignId: string,
): Promise<Progress> {
  const { data, error, response } = await client.GET('/api/v1/campaigns/{campaign_id}/stats', {
    params: { path: { campaign_id: campaignId } },
  });
  if (!data) throw new Error(`stats: ${errorText(error, response.status)}`);
  return progressOf(data);
}
