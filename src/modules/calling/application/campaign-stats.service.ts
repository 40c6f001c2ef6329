import { Injectable } from '@nestjs/common';
import { Clock } from '../../../common/clock/clock.js';
import { CallLogService } from '../../call-log/application/call-log.service.js';
import { CampaignReader } from '../../campaign/application/ports/campaign-reader.js';
import type { CampaignState } from '../../campaign/domain/campaign.js';
import { TargetTransitions } from '../../target/application/ports/target-transitions.js';
import { TARGET_STATUS_FILTERS } from '../../target/domain/target.js';
import type { CallOutcome } from '../../telephony/domain/call-outcome.js';
import {
  expectedCallsPerMinute,
  honestCompletion,
  LaterStart,
} from '../domain/completion-estimate.js';

/** Outcomes that reached someone: the numerator of the connect rate and what the mean length is of. */
export const CONNECTED_OUTCOMES: readonly CallOutcome[] = ['GOOD', 'HUMAN_ONLY', 'DNC_REQUESTED'];
/** The window the recent call rate is measured over. */
export const RECENT_MINUTES = 15;

export interface CampaignStats {
  campaignId: string;
  state: CampaignState;
  asOf: Date;
  targets: {
    total: number;
    byStatus: Record<string, number>;
    byCategory: Record<string, number>;
    byResolution: Record<string, number>;
  };
  attempts: number;
  callsInFlight: number;
  endedCalls: number;
  connectedCalls: number;
  connectRate: number | null;
  averageCallSeconds: number | null;
  dueNow: number;
  dueLater: number;
  nextScheduledAt: Date | null;
  /** `Scheduled` targets each calling rule holds right now (docs/compliance.md). */
  heldByRule: Record<string, number>;
  recentCallsPerMinute: number;
  estimatedCompletionAt: Date | null;
  /** The latest time a calling rule holds a remaining target to, when that makes the end later. */
  estimateHeldUntil: Date | null;
  /** Then the targets the rules hold, by rule. */
  estimateHeldByRule: Record<string, number>;
}

/**
 * `GET /campaigns/{id}/stats` (issue 12): exact counts, each one set-based read through the owning
 * module (targets: TargetTransitions.countCampaign; calls: CallLogService.countCampaign), and an
 * estimate of when the `Scheduled` and in-flight targets are done.
 */
@Injectable()
export class CampaignStatsService {
  constructor(
    private readonly campaigns: CampaignReader,
    private readonly targets: TargetTransitions,
    private readonly callLogs: CallLogService,
    private readonly clock: Clock,
  ) {}

  async stats(organizationId: string, campaignId: string): Promise<CampaignStats> {
    const campaign = await this.campaigns.get(organizationId, campaignId);
    const now = this.clock.now();
    const since = new Date(now.getTime() - RECENT_MINUTES * 60_000);
    const [t, calls] = await Promise.all([
      this.targets.countCampaign(campaign.id, now),
      this.callLogs.countCampaign(campaign.id, CONNECTED_OUTCOMES, since),
    ]);
    const byStatus = Object.fromEntries(TARGET_STATUS_FILTERS.map((s) => [s, t.byStatus[s] ?? 0]));
    const recentCallsPerMinute = calls.startedSince / RECENT_MINUTES;
    const rate = expectedCallsPerMinute(
      recentCallsPerMinute,
      campaign.maxConcurrentCalls,
      calls.averageConnectedSeconds,
    );
    // Only an active campaign progresses; each Scheduled target needs at least one more call, none
    // before the time the rules hold it to, nor the last before its scheduled time (a retry's).
    const laterStarts: LaterStart[] = t.heldUntil.map((h) => ({
      at: h.until,
      targets: h.targets,
      rule: h.rule,
    }));
    if (t.lastScheduledAt && !laterStarts.some((s) => s.at >= t.lastScheduledAt!))
      laterStarts.push({ at: t.lastScheduledAt, targets: 1, rule: null });
    const estimate =
      campaign.state === 'active'
        ? honestCompletion(
            campaign.callingWindow,
            now,
            t.dueNow + t.dueLater + t.inFlight,
            rate,
            laterStarts,
          )
        : { at: null, heldUntil: null, heldByRule: {} };
    return {
      campaignId: campaign.id,
      state: campaign.state,
      asOf: now,
      targets: {
        total: t.total,
        byStatus,
        byCategory: sortedKeys(t.byCategory),
        byResolution: sortedKeys(t.byResolution),
      },
      attempts: calls.calls,
      callsInFlight: t.inFlight,
      endedCalls: calls.ended,
      connectedCalls: calls.connected,
      connectRate: calls.ended === 0 ? null : round4(calls.connected / calls.ended),
      averageCallSeconds:
        calls.averageConnectedSeconds === null ? null : round4(calls.averageConnectedSeconds),
      dueNow: t.dueNow,
      dueLater: t.dueLater,
      nextScheduledAt: t.nextScheduledAt,
      heldByRule: sortedKeys(t.heldByRule),
      recentCallsPerMinute: round4(recentCallsPerMinute),
      estimatedCompletionAt: estimate.at,
      estimateHeldUntil: estimate.heldUntil,
      estimateHeldByRule: sortedKeys(estimate.heldByRule),
    };
  }
}

const round4 = (x: number) => Math.round(x * 10_000) / 10_000;
const sortedKeys = (m: Record<string, number>) =>
  Object.fromEntries(Object.entries(m).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
