import { Injectable } from '@nestjs/common';
import { Tx } from '../../../common/persistence/unit-of-work.js';
import { TargetEventLog, WORKER } from '../../target/application/ports/target-event-log.js';
import { TargetTransitions } from '../../target/application/ports/target-transitions.js';
import type { Target } from '../../target/domain/target.js';
import { CAMPAIGN_CANCELLED, retryWords } from '../../target/domain/waiting-reason.js';
import type { CallOutcome } from '../../telephony/domain/call-outcome.js';
import { CAMPAIGN_CANCELLED_OUTCOME, TargetDecision } from '../domain/call-outcome.js';
import type { Completion, PlannedEnding } from './ended-call.js';

/**
 * The targets of ended calls, moved as their decisions say (final, `Scheduled` for a retry, or
 * `SMS Scheduled` before a follow-up text), each with its timeline's actor and words: one
 * attribution and one statement per round of distinct target ids.
 */
@Injectable()
export class AttemptEndings {
  constructor(
    private readonly targets: TargetTransitions,
    private readonly events: TargetEventLog,
  ) {}

  /** The targets moved (a target gone or no longer in flight with this call is left out). */
  async finish(tx: Tx, ending: PlannedEnding[], now: Date): Promise<Target[]> {
    const updated: Target[] = [];
    for (const round of roundsOfDistinctIds(ending)) {
      updated.push(...(await this.finishRound(tx, round, now)));
    }
    return updated;
  }

  /** One attribution and one statement for targets of distinct ids (see `roundsOfDistinctIds`). */
  private async finishRound(tx: Tx, round: PlannedEnding[], now: Date): Promise<Target[]> {
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
      round.map(({ call: { log, result }, decision, subcategory, durationSeconds, text }) => ({
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
      })),
    );
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
function roundsOfDistinctIds(ending: PlannedEnding[]): PlannedEnding[][] {
  const rounds: { ids: Set<string>; planned: PlannedEnding[] }[] = [];
  for (const p of ending) {
    let round = rounds.find((r) => !r.ids.has(p.call.log.targetId));
    if (!round) rounds.push((round = { ids: new Set(), planned: [] }));
    round.ids.add(p.call.log.targetId);
    round.planned.push(p);
  }
  return rounds.map((r) => r.planned);
}
