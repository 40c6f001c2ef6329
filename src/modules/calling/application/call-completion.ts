import { Injectable } from '@nestjs/common';
import { Clock } from '../../../common/clock/clock.js';
import { Tx, UnitOfWork } from '../../../common/persistence/unit-of-work.js';
import { CallLogService } from '../../call-log/application/call-log.service.js';
import type { CallLog } from '../../call-log/domain/call-log.js';
import { CampaignReader } from '../../campaign/application/ports/campaign-reader.js';
import type { Campaign } from '../../campaign/domain/campaign.js';
import { followsWithText } from '../../messaging/domain/message.js';
import { CallResult, callResult } from '../../telephony/application/ports/call-provider.js';
import type { CallOutcome } from '../../telephony/domain/call-outcome.js';
import { cancelledDecision, decideAfterAttempt } from '../domain/call-outcome.js';
import { callSeconds, webUrls } from '../domain/provider-report.js';
import { AttemptEndings } from './attempt-endings.js';
import { CallEndingEffects } from './call-ending-effects.js';
import type { Completion, EndedCall, PlannedEnding } from './ended-call.js';
import { TranscriptRedactionService } from '../../retention/application/transcript-redaction.service.js';

export type { Completion, EndedCall } from './ended-call.js';

/** A technical failure with nothing else known: placement errors and calls nobody can tell about. */
export function failedCall(
  endedReason: string,
  agentData: Record<string, unknown> = {},
): CallResult {
  return callResult('TECHNICAL_FAILURE', endedReason, { agentData });
}

/**
 * The one way attempts end, whatever ended them (provider events, a placement error, the deadline
 * sweep): the call logs' outcomes, the targets' transitions (final, or Scheduled for a retry), the
 * `target.call_finished` outbox events, and the do-not-call listings of calls that ended
 * `DNC_REQUESTED`, in the caller's transaction. A batch of ended calls costs one statement per step
 * whatever its size (close the logs, read the campaigns' states when a retry is due, list the numbers,
 * move the targets, record the events). Each step is conditional (the log still open, the target
 * still in flight with this call), so an outcome is applied at most once and a target never moves
 * backwards.
 */
@Injectable()
export class CallCompletion {
  constructor(
    private readonly callLogs: CallLogService,
    private readonly campaigns: CampaignReader,
    private readonly endings: AttemptEndings,
    private readonly effects: CallEndingEffects,
    private readonly uow: UnitOfWork,
    private readonly clock: Clock,
    private readonly redaction: TranscriptRedactionService,
  ) {}

  /** In its own transaction (the campaign is read before it opens). False: already ended. */
  async finishNow(log: CallLog, result: CallResult, completion: Completion = {}): Promise<boolean> {
    const [ended] = await this.finishAllNow([{ log, result, completion }]);
    return ended;
  }

  /**
   * `finishAll` in its own transaction (the campaigns are read before it opens); a call whose campaign
   * is gone is not ended (false).
   */
  async finishAllNow(calls: Omit<EndedCall, 'campaign'>[]): Promise<boolean[]> {
    if (calls.length === 0) return [];
    const campaigns = new Map<string, Campaign | null>();
    for (const { log } of calls) {
      if (!campaigns.has(log.campaignId))
        campaigns.set(log.campaignId, await this.campaigns.findById(log.campaignId));
    }
    const known = calls.flatMap((call, index) => {
      const campaign = campaigns.get(call.log.campaignId);
      return campaign ? [{ index, call: { ...call, campaign } }] : [];
    });
    const ended = await this.uow.run((tx) =>
      this.finishAll(
        tx,
        known.map((k) => k.call),
      ),
    );
    const out = calls.map(() => false);
    known.forEach(({ index }, i) => (out[index] = ended[i]));
    return out;
  }

  /** Returns false when the call had already ended (nothing changed). */
  async finish(
    tx: Tx,
    log: CallLog,
    campaign: Campaign,
    result: CallResult,
    completion: Completion = {},
  ): Promise<boolean> {
    const [ended] = await this.finishAll(tx, [{ log, campaign, result, completion }]);
    return ended;
  }

  /**
   * Ends every call of `calls` still open, set-based; for each, whether this ended it (false: it had
   * already ended, or an earlier entry of the batch ended it).
   */
  async finishAll(tx: Tx, calls: EndedCall[]): Promise<boolean[]> {
    if (calls.length === 0) return [];
    const now = this.clock.now();
    const planned = calls.map((call) => this.plan(call, now));
    await this.redact(tx, planned);
    const closed = new Set(
      await this.callLogs.completeMany(
        tx,
        planned.map((p) => ({ id: p.call.log.id, completion: p.logCompletion })),
      ),
    );
    // The first entry of a call closes it; any later one in the batch is a no-op like a late event.
    const ending: PlannedEnding[] = [];
    const ended = planned.map((p) => {
      if (!closed.delete(p.call.log.id)) return false;
      ending.push(p);
      return true;
    });
    if (ending.length === 0) return ended;
    // A retry of a cancelled campaign ends instead. The share locks close the race with a cancel: one
    // under way is waited for (and seen), one that starts later waits for this transaction and then
    // ends the retry with the other Scheduled targets.
    const retrying = ending.filter((p) => p.decision.status === 'Scheduled');
    if (retrying.length > 0) {
      const states = await this.campaigns.lockedStates(tx, [
        ...new Set(retrying.map((p) => p.call.campaign.id)),
      ]);
      for (const p of retrying) {
        if (states.get(p.call.campaign.id) === 'cancelled') {
          p.decision = cancelledDecision(p.call.campaign.type);
        }
      }
    }
    // After the cancel check: a retry the cancel ended is no longer the call's category's follow-up.
    for (const p of ending) {
      const { campaign, completion } = p.call;
      p.text = followsWithText(campaign.smsFollowUp, p.decision, completion?.lost === true);
    }
    const updated = await this.endings.finish(tx, ending, now);
    await this.effects.apply(tx, ending, updated, now);
    return ended;
  }

  /** Transcripts and post-call data redacted before they are written, where the policy says so. */
  private async redact(tx: Tx, planned: PlannedEnding[]): Promise<void> {
    const redacted = await this.redaction.redactCallRecords(
      tx,
      planned.map((p) => ({
        organizationId: p.call.log.organizationId,
        targetId: p.call.log.targetId,
        transcripts: p.logCompletion.transcripts,
        postCallData: p.logCompletion.postCallData,
      })),
    );
    planned.forEach((p, i) => {
      p.logCompletion.transcripts = redacted[i].transcripts;
      p.logCompletion.postCallData = redacted[i].postCallData;
    });
  }

  /** What ending this call writes (pure): the log's outcome and the target's decision. */
  private plan(call: EndedCall, now: Date): PlannedEnding {
    const { log, campaign, result, completion = {} } = call;
    const durationSeconds = callSeconds(result.durationSeconds);
    const decision = decideAfterAttempt({
      campaignType: campaign.type,
      maxAttempts: campaign.maxAttempts,
      retryDelayMinutes: campaign.retryDelayMinutes,
      attempt: log.attempt,
      outcome: result.outcome,
      now,
      lost: completion.lost,
    });
    return {
      call,
      decision,
      text: false,
      // Of the decision after the attempt, also when a cancel turns a retry into an end.
      subcategory: result.subcategory ?? decision.subcategory,
      durationSeconds,
      logCompletion: {
        outcome: result.outcome,
        endedReason: result.endedReason,
        providerCallId: completion.providerCallId ?? null,
        callCategorization: this.categorization(
          campaign,
          result.outcome,
          result.subcategory ?? null,
        ),
        agentData: result.agentData,
        postCallData: result.postCallData,
        qa: result.qa,
        transcripts: result.transcripts,
        recordingUrls: webUrls(result.recordingUrls),
        outputData: result.outputData,
        subcategory: result.subcategory ?? null,
        endedAt: now,
        durationSeconds,
      },
    };
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
