/**
 * A campaign's targets counted by status. Until the service has a stats endpoint
 * (`GET /api/v1/campaigns/{id}/stats`, being added), the count of each status is the `page_count` of
 * that status's target list read with `limit=1`: one small request per status. When the endpoint
 * lands, only this function changes.
 */
import type { CampaignCallingClient } from '../../clients/typescript/src/index.js';
import { TARGET_STATUSES, type TargetStatus } from './api.js';

export type StatusCounts = Record<TargetStatus, number>;

export interface Progress {
  counts: StatusCounts;
  total: number;
  /** Targets in a final state (Finished, Failed, To review). */
  done: number;
}

export const FINAL_STATUSES: readonly TargetStatus[] = ['Finished', 'Failed', 'To review'];

export async function loadProgress(
  client: CampaignCallingClient,
  campaignId: string,
): Promise<Progress> {
  const entries = await Promise.all(
    TARGET_STATUSES.map(async (status) => {
      const { data, error, response } = await client.GET(
        '/api/v1/campaigns/{campaign_id}/targets',
        {
          params: { path: { campaign_id: campaignId }, query: { status, limit: 1, page: 0 } },
        },
      );
      if (error || !data) throw new Error(`targets (${status}): ${response.status}`);
      return [status, data.page_count ?? 0] as const;
    }),
  );
  const counts = Object.fromEntries(entries) as StatusCounts;
  const total = entries.reduce((sum, [, n]) => sum + n, 0);
  const done = FINAL_STATUSES.reduce((sum, s) => sum + counts[s], 0);
  return { counts, total, done };
}
