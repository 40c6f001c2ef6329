import { Injectable, Logger } from '@nestjs/common';
import { Metrics } from '../../../common/metrics/metrics';
import { Clock } from '../../../common/clock/clock';
import { CallFinishedOutbox } from '../../webhook/application/ports/call-finished-outbox';
import { Tx, UnitOfWork } from '../../../common/persistence/unit-of-work';
import { CallLogService } from '../../call-log/application/call-log.service';
import type { CallLog } from '../../call-log/domain/call-log';
import { CampaignReader } from '../../campaign/application/ports/campaign-reader';
import type { Campaign } from '../../campaign/domain/campaign';
import {
  EventActor,
  TargetEventLog,
  WORKER,
} from '../../target/application/ports/target-event-log';
import { CAMPAIGN_CANCELLED, retryWords } from '../../target/domain/waiting-reason';
import { TargetTransitions } from '../../target/application/ports/target-transitions';
import {
  CAMPAIGN_CANCELLED_OUTCOME,
  CallOutcome,
  cancelledDecision,
  decideAfterAttempt,
  TargetDecision,
} from '../domain/call-outcome';
import { CallResult } from './ports/call-provider';

export interface Completion {
  /** The provider's id for the call, kept when the log has none yet. */
  providerCallId?: string | null;
  /** Placed, but what happened is unknown (worker lost, deadline passed): a person reviews it. */
  lost?: boolean;
  /** What ended the call, for the target's timeline; a worker (placement error, sweep) by default. */
  actor?: EventActor;
}

/** A technical failure with nothing else known: placement errors and calls nobody can tell about. */
export function failedCall(
  endedReason: string,
  agentData: Record<string, unknown> = {},
): CallResult {
  return {
    outcome: 'TECHNICAL_FAILURE',
    endedReason,
    durationSeconds: 0,
    transcripts: [],
    agentData,
    postCallData: null,
    qa: null,
    recordingUrls: [],
    outputData: {},
  };
}

/**
 * The one way an attempt ends, whatever ended it (a provider event, a placement error, the deadline
 * sweep): the call log's outcome, the target's transition (final, or Scheduled for a retry), the
 * `target.call_finished` outbox event, in the caller's transaction. Each step is conditional (the log
 * still open, the target still in flight with this call), so an outcome is applied at most once and a
 * target never moves backwards.
 */
@Injectable()
export class CallCompletion {
  private readonly logger = new Logger('Calls');

  constructor(
    private readonly callLogs: CallLogService,
    private readonly targets: TargetTransitions,
    private readonly campaigns: CampaignReader,
    private readonly outbox: CallFinishedOutbox,
    private readonly uow: UnitOfWork,
    private readonly clock: Clock,
    private readonly metrics: Metrics,
    private readonly events: TargetEventLog,
  ) {}

  /** In its own transaction (the campaign is read before it opens). False: already ended. */
  async finishNow(log: CallLog, result: CallResult, completion: Completion = {}): Promise<boolean> {
    const campaign = await this.campaigns.findById(log.campaignId);
    if (!campaign) return false;
    return this.uow.run((tx) => this.finish(tx, log, campaign, result, completion));
  }

  /** Returns false when the call had already ended (nothing changed). */
  async finish(
    tx: Tx,
    log: CallLog,
    campaign: Campaign,
    result: CallResult,
    completion: Completion = {},
  ): Promise<boolean> {
    const now = this.clock.now();
    const durationSeconds = Math.max(0, Math.round(result.durationSeconds));
    let decision = decideAfterAttempt({
      campaignType: campaign.type,
      maxAttempts: campaign.maxAttempts,
      retryDelayMinutes: campaign.retryDelayMinutes,
      attempt: log.attempt,
      outcome: result.outcome,
      now,
      lost: completion.lost,
    });
    const subcategory = result.subcategory ?? decision.subcategory;
    const closed = await this.callLogs.complete(tx, log.id, {
      outcome: result.outcome,
      endedReason: result.endedReason,
      providerCallId: completion.providerCallId ?? null,
      callCategorization: this.categorization(campaign, result.outcome, result.subcategory ?? null),
      agentData: result.agentData,
      postCallData: result.postCallData,
      qa: result.qa,
      transcripts: result.transcripts,
      recordingUrls: result.recordingUrls,
      outputData: result.outputData,
      subcategory: result.subcategory ?? null,
      endedAt: now,
      durationSeconds,
    });
    if (!closed) return false;
    // A retry of a cancelled campaign ends instead. The share lock closes the race with a cancel: one
    // under way is waited for (and seen), one that starts later waits for this transaction and then
    // ends the retry with the other Scheduled targets.
    if (
      decision.status === 'Scheduled' &&
      (await this.campaigns.lockedState(tx, campaign.id)) === 'cancelled'
    ) {
      decision = cancelledDecision(campaign.type);
    }
    await this.events.attribute(tx, {
      actor: completion.actor ?? WORKER,
      reason: endingWords(decision, result.outcome, log.attempt, campaign.maxAttempts, completion),
    });
    const updated = await this.targets.finishAttempt(tx, log.targetId, {
      ...decision,
      subcategory,
      callLogId: log.id,
      durationSeconds,
      outputData: result.outputData,
      categorization: {
        category: decision.category,
        subcategory,
        resolution: decision.resolution,
        outcome: result.outcome,
        call_log_id: log.id,
      },
      now,
    });
    this.logger.log(
      {
        callLogId: log.id,
        targetId: log.targetId,
        campaignId: log.campaignId,
        provider: log.provider,
        providerCallId: completion.providerCallId ?? log.providerCallId,
        outcome: result.outcome,
        endedReason: result.endedReason,
        durationSeconds,
        status: updated?.status ?? null,
      },
      'call ended',
    );
    // Counted as the ending is applied, inside its transaction: a transaction that rolls back and is
    // retried counts twice, which a rate on a dashboard does not notice.
    this.metrics.callEnded(log.provider, result.outcome);
    if (!updated) return true;
    await this.outbox.record(tx, {
      organizationId: updated.organizationId,
      campaignId: updated.campaignId,
      targetId: updated.id,
      callLogId: log.id,
      attempt: log.attempt,
      maxAttempts: campaign.maxAttempts,
      nextAttemptScheduled: decision.retryAt,
      status: updated.status,
      resolution: updated.resolution,
      category: updated.category,
      subcategory: updated.subcategory,
    });
    return true;
  }

  private categorization(campaign: Campaign, outcome: CallOutcome, subcategory: string | null) {
    const d = decideAfterAttempt({
      campaignType: campaign.type,
      maxAttempts: 1,
      retryDelayMinutes: 0,
      attempt: 1,
      outcome,
      now: this.clock.now(),
    });
    return { category: d.category, subcategory: subcategory ?? d.subcategory, outcome };
  }
}

/** The reason words of an attempt's ending, as the target's timeline shows them. */
function endingWords(
  decision: TargetDecision,
  outcome: CallOutcome,
  attempt: number,
  maxAttempts: number,
  completion: Completion,
): string {
  if (decision.outcome === CAMPAIGN_CANCELLED_OUTCOME) return `${CAMPAIGN_CANCELLED} (after ${outcome})`;
  if (decision.status === 'Scheduled') return retryWords(attempt + 1, maxAttempts, outcome);
  const lost = completion.lost ? ', outcome unknown' : '';
  return `${decision.status.toLowerCase()} after ${outcome} (attempt ${attempt} of ${maxAttempts}${lost})`;
}
