import { Tx } from '../../../../common/persistence/unit-of-work';
import type { Target } from '../../../target/domain/target';
import type { TargetDecision } from '../../domain/call-outcome';

export type TriggerSelection = { targetIds: string[] } | { count: number; oldestFirst: boolean };

export interface TriggerClaim {
  /** Made `Scheduled` by this statement, in request order (ids) or pick order (count). */
  scheduled: string[];
  notFound: string[];
  notPending: string[];
}

export type StartCallResult =
  | { kind: 'started'; target: Target }
  /** The campaign already has `max_concurrent_calls` calls in flight. */
  | { kind: 'busy' }
  /** Not `Scheduled` any more, or not due: someone else handled it. */
  | { kind: 'gone' };

export interface AttemptResult extends TargetDecision {
  callLogId: number;
  durationSeconds: number;
  outputData: Record<string, unknown>;
  categorization: Record<string, unknown>;
  now: Date;
}

/**
 * The calling engine's view of the targets table. Every transition is one conditional statement on the
 * expected status, so any number of workers can race on a target and only one wins.
 */
export abstract class DispatchRepository {
  /** Pending targets of the campaign to `Scheduled` at `now`, atomically (no target twice). */
  abstract claimForTrigger(
    tx: Tx,
    campaignId: string,
    selection: TriggerSelection,
    now: Date,
  ): Promise<TriggerClaim>;
  abstract findTarget(targetId: string): Promise<Target | null>;
  /** `Scheduled` → `Scheduled` later; false when the target is not `Scheduled` any more. */
  abstract defer(tx: Tx, targetId: string, until: Date): Promise<boolean>;
  /**
   * Serialises call starts of one campaign until the transaction ends, so the in-flight count that
   * `startCall` reads next includes every start committed before (two workers cannot both take the
   * last slot).
   */
  abstract lockCampaignSlots(tx: Tx, campaignId: string): Promise<void>;
  /**
   * `Scheduled` and due → `In Progress` (attempts + 1, retries, call_started_at, last_call_date), only
   * while the campaign has fewer than `maxConcurrentCalls` calls in flight. Call after
   * `lockCampaignSlots` in the same transaction.
   */
  abstract startCall(
    tx: Tx,
    target: { id: string; campaignId: string },
    maxConcurrentCalls: number,
    now: Date,
  ): Promise<StartCallResult>;
  /**
   * The campaign is full: the target joins the campaign's waitlist (keeping its place if already on
   * it) and stays `Scheduled` until `until`, a backstop in case no slot is handed to it. False when the
   * target is not `Scheduled` any more.
   */
  abstract waitForSlot(
    tx: Tx,
    target: { id: string; campaignId: string },
    now: Date,
    until: Date,
  ): Promise<boolean>;
  /**
   * A slot of the campaign was freed: the first waiting target that is still `Scheduled` leaves the
   * waitlist and becomes due at `now`. Returns it (or nothing when no target waits).
   */
  abstract wakeNextWaiting(
    tx: Tx,
    campaignId: string,
    now: Date,
  ): Promise<{ id: string; campaignId: string }[]>;
  /** Removes waitlist entries of targets that are not `Scheduled` any more. */
  abstract pruneWaitlist(): Promise<number>;
  abstract attachCallLog(tx: Tx, targetId: string, callLogId: number): Promise<void>;
  /** `In Progress` with this call → `Post-processing`; false when the call was recovered meanwhile. */
  abstract markPostProcessing(
    tx: Tx,
    targetId: string,
    callLogId: number,
    now: Date,
  ): Promise<boolean>;
  /**
   * Applies the attempt's outcome to a target still in flight with this call as its latest
   * (`In Progress` or `Post-processing`); returns the updated target, or null when already applied.
   */
  abstract finishAttempt(tx: Tx, targetId: string, result: AttemptResult): Promise<Target | null>;
  /** A target that ends without a call (blacklisted, undialable): only from `Scheduled`. */
  abstract finishWithoutCall(
    tx: Tx,
    targetId: string,
    decision: TargetDecision,
    now: Date,
  ): Promise<Target | null>;
  /**
   * `Scheduled` targets due before `overdueBefore` whose job may have been lost with a dead worker:
   * their scheduled_time moves to `now` (so each is rescued once per grace period) and they are returned.
   */
  abstract rescueOverdue(
    tx: Tx,
    overdueBefore: Date,
    now: Date,
    limit: number,
  ): Promise<{ id: string; campaignId: string }[]>;
}
