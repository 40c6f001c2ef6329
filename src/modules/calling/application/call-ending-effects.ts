import { Injectable, Logger } from '@nestjs/common';
import { Metrics } from '../../../common/metrics/metrics.js';
import { Tx } from '../../../common/persistence/unit-of-work.js';
import { DoNotCallService } from '../../compliance/application/do-not-call.service.js';
import { FollowUpTexts } from '../../messaging/application/ports/follow-up-texts.js';
import type { TargetContinuation } from '../../messaging/domain/message.js';
import type { Target } from '../../target/domain/target.js';
import { Outbox, OutboxEvent } from '../../webhook/application/ports/outbox.js';
import { cancelledDecision, TargetDecision } from '../domain/call-outcome.js';
import type { PlannedEnding } from './ended-call.js';

/**
 * What follows the ends of calls in their transaction, once their targets have moved: the
 * do-not-call listings of calls that ended `DNC_REQUESTED`, the campaign's follow-up texts, the log
 * line and the metric of each call, and the `target.call_finished` events.
 */
@Injectable()
export class CallEndingEffects {
  private readonly logger = new Logger('Calls');

  constructor(
    private readonly doNotCall: DoNotCallService,
    private readonly texts: FollowUpTexts,
    private readonly metrics: Metrics,
    private readonly outbox: Outbox,
  ) {}

  /** `updated`: the targets the ends moved (a target may be gone). */
  async apply(tx: Tx, ending: PlannedEnding[], updated: Target[], now: Date): Promise<void> {
    // The person asked not to be called again: the number dialled goes on the organization's list in
    // this transaction, so the call's end and the listing commit together (the target may be gone).
    // After the targets' row locks, as the dispatcher's claim takes its locks: no lock cycle.
    await this.doNotCall.addFromCalls(
      tx,
      ending
        .filter((p) => p.call.result.outcome === 'DNC_REQUESTED')
        .map(({ call: { log } }) => ({
          organizationId: log.organizationId,
          phoneNumber: log.to,
          campaignId: log.campaignId,
          targetId: log.targetId,
          callLogId: log.id,
          at: now,
        })),
    );
    const byCallLog = new Map(updated.map((t) => [t.callLogIds?.at(-1), t]));
    // The campaign's follow-up texts, queued with the calls' ends: the targets wait `SMS Scheduled`.
    await this.texts.queueFollowUps(
      tx,
      ending.flatMap(({ call, decision, text }) => {
        const target = byCallLog.get(call.log.id);
        if (!text || target?.status !== 'SMS Scheduled') return [];
        return [
          {
            campaign: call.campaign,
            target,
            callLogId: call.log.id,
            to: call.log.to,
            continuation: {
              next: continuationOf(decision),
              ifCancelled: continuationOf(cancelledDecision(call.campaign.type)),
            },
            now,
          },
        ];
      }),
    );
    const events: OutboxEvent[] = [];
    for (const { call, decision, durationSeconds } of ending) {
      const { log, result, completion } = call;
      const target = byCallLog.get(log.id) ?? null;
      this.logger.log(
        {
          callLogId: log.id,
          targetId: log.targetId,
          campaignId: log.campaignId,
          provider: log.provider,
          providerCallId: completion?.providerCallId ?? log.providerCallId,
          outcome: result.outcome,
          endedReason: result.endedReason,
          durationSeconds,
          status: target?.status ?? null,
        },
        'call ended',
      );
      // Counted as the ending is applied, inside its transaction: a transaction that rolls back and is
      // retried counts twice, which a rate on a dashboard does not notice.
      this.metrics.callEnded(log.provider, result.outcome);
      if (!target) continue;
      events.push({
        kind: 'call_finished',
        event: {
          organizationId: target.organizationId,
          campaignId: target.campaignId,
          targetId: target.id,
          callLogId: log.id,
          attempt: log.attempt,
          maxAttempts: call.campaign.maxAttempts,
          nextAttemptScheduled: decision.retryAt,
          status: target.status,
          resolution: target.resolution,
          category: target.category,
          subcategory: target.subcategory,
        },
      });
    }
    await this.outbox.record(tx, events);
  }
}

/** What a target does after its follow-up text, as the text keeps it. */
function continuationOf(d: TargetDecision): TargetContinuation {
  return {
    status: d.status,
    resolution: d.resolution,
    category: d.category,
    subcategory: d.subcategory,
    outcome: d.outcome,
    retryAt: d.retryAt?.toISOString() ?? null,
  };
}
