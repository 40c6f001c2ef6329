import { Injectable, Logger } from '@nestjs/common';
import { Metrics } from '../../../common/metrics/metrics.js';
import { Clock } from '../../../common/clock/clock.js';
import {
  CallFinishedEvent,
  CallFinishedOutbox,
} from '../../webhook/application/ports/call-finished-outbox.js';
import { Tx, UnitOfWork } from '../../../common/persistence/unit-of-work.js';
import { CallLogService } from '../../call-log/application/call-log.service.js';
import { DoNotCallService } from '../../compliance/application/do-not-call.service.js';
import type { CallLog, CallLogCompletion } from '../../call-log/domain/call-log.js';
import { CampaignReader } from '../../campaign/application/ports/campaign-reader.js';
import type { Campaign } from '../../campaign/domain/campaign.js';
import {
  EventActor,
  TargetEventLog,
  WORKER,
} from '../../target/application/ports/target-event-log.js';
import { CAMPAIGN_CANCELLED, retryWords } from '../../target/domain/waiting-reason.js';
import { TargetTransitions } from '../../target/application/ports/target-transitions.js';
import type { Target } from '../../target/domain/target.js';
import {
  CAMPAIGN_CANCELLED_OUTCOME,
  CallOutcome,
  cancelledDecision,
  decideAfterAttempt,
  TargetDecision,
} from '../domain/call-outcome.js';
import { CallResult } from './ports/call-provider.js';
import { FollowUpTexts } from '../../messaging/application/ports/follow-up-texts.js';
import { followsWithText, type TargetContinuation } from '../../messaging/domain/message.js';
import { callSeconds, webUrls } from '../domain/provider-report.js';
import { TranscriptRedactionService } from '../../retention/application/transcript-redaction.service.js';

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

/** One attempt to end: its call log, the campaign it belongs to, what happened. */
export interface EndedCall {
  log: CallLog;
  campaign: Campaign;
  result: CallResult;
  completion?: Completion;
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
    private readonly doNotCall: DoNotCallService,
    private readonly texts: FollowUpTexts,
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
    const ending: Planned[] = [];
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
    const updated: Target[] = [];
    for (const round of roundsOfDistinctIds(ending)) {
      updated.push(...(await this.finishTargets(tx, round, now)));
    }
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
    const events: CallFinishedEvent[] = [];
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
      });
    }
    await this.outbox.recordAll(tx, events);
    return ended;
  }

  /** One attribution and one statement for targets of distinct ids (see `roundsOfDistinctIds`). */
  private async finishTargets(tx: Tx, round: Planned[], now: Date): Promise<Target[]> {
    // Who and why for each target's timeline, set once for the one statement that moves them all.
    await this.events.attribute(tx, {
      actor: WORKER,
      actorsByTarget: Object.fromEntries(
        round.flatMap(({ call }) =>
          call.completion?.actor ? [[call.log.targetId, call.completion.actor]] : [],
        ),
      ),
      reasonsByTarget: Object.fromEntries(
        round.map(({ call, decision, text }) => [
          call.log.targetId,
          endingWords(
            decision,
            call.result.outcome,
            call.log.attempt,
            call.campaign.maxAttempts,
            call.completion ?? {},
          ) + (text ? '; a follow-up text is sent first' : ''),
        ]),
      ),
    });
    return this.targets.finishAttempts(
      tx,
      round.map(({ call: { log, result }, decision, subcategory, durationSeconds, text }) => {
        return {
          ...decision,
          status: text ? 'SMS Scheduled' : decision.status,
          subcategory,
          organizationId: log.organizationId,
          targetId: log.targetId,
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
        };
      }),
    );
  }

  /** Transcripts and post-call data redacted before they are written, where the policy says so. */
  private async redact(tx: Tx, planned: Planned[]): Promise<void> {
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
  private plan(call: EndedCall, now: Date): Planned {
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

interface Planned {
  call: EndedCall;
  decision: TargetDecision;
  /** The campaign's follow-up text follows this attempt (the target goes `SMS Scheduled` first). */
  text: boolean;
  subcategory: string | null;
  durationSeconds: number;
  logCompletion: CallLogCompletion;
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

/** The reason words of an attempt's ending, as the target's timeline shows them. */
function endingWords(
  decision: TargetDecision,
  outcome: CallOutcome,
  attempt: number,
  maxAttempts: number,
  completion: Completion,
): string {
  if (decision.outcome === CAMPAIGN_CANCELLED_OUTCOME)
    return `${CAMPAIGN_CANCELLED} (after ${outcome})`;
  if (decision.status === 'Scheduled') return retryWords(attempt + 1, maxAttempts, outcome);
  const lost = completion.lost ? ', outcome unknown' : '';
  return `${decision.status.toLowerCase()} after ${outcome} (attempt ${attempt} of ${maxAttempts}${lost})`;
}

/**
 * The batch split so that no round holds two targets of one id: target ids are unique per organization
 * only, and the timeline's attribution (`reasonsByTarget`, `actorsByTarget`) is keyed by target id, so
 * two organizations' targets of one id in one statement would share one's words. Almost always one
 * round: the whole batch in one statement, as before.
 */
function roundsOfDistinctIds(ending: Planned[]): Planned[][] {
  const rounds: { ids: Set<string>; planned: Planned[] }[] = [];
  for (const p of ending) {
    let round = rounds.find((r) => !r.ids.has(p.call.log.targetId));
    if (!round) rounds.push((round = { ids: new Set(), planned: [] }));
    round.ids.add(p.call.log.targetId);
    round.planned.push(p);
  }
  return rounds.map((r) => r.planned);
}
