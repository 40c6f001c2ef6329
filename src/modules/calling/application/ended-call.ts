import type { CallLog, CallLogCompletion } from '../../call-log/domain/call-log.js';
import type { Campaign } from '../../campaign/domain/campaign.js';
import type { EventActor } from '../../target/application/ports/target-event-log.js';
import type { CallResult } from '../../telephony/application/ports/call-provider.js';
import type { TargetDecision } from '../domain/call-outcome.js';

export interface Completion {
  /** The provider's id for the call, kept when the log has none yet. */
  providerCallId?: string | null;
  /** Placed, but what happened is unknown (worker lost, deadline passed): a person reviews it. */
  lost?: boolean;
  /** What ended the call, for the target's timeline; a worker (placement error, sweep) by default. */
  actor?: EventActor;
}

/** One attempt to end: its call log, the campaign it belongs to, what happened. */
export interface EndedCall {
  log: CallLog;
  campaign: Campaign;
  result: CallResult;
  completion?: Completion;
}

/** What ending one call writes: the log's outcome and the target's decision. */
export interface PlannedEnding {
  call: EndedCall;
  decision: TargetDecision;
  /** The campaign's follow-up text follows this attempt (the target goes `SMS Scheduled` first). */
  text: boolean;
  subcategory: string | null;
  durationSeconds: number;
  logCompletion: CallLogCompletion;
}
