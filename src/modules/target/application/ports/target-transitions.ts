import { Tx } from '../../../../common/persistence/unit-of-work.js';
import type { Target, TargetHold, TargetStatus } from '../../domain/target.js';

/**
 * The PostgreSQL channel a transaction notifies (delivered on commit) when it made targets due, or freed
 * a call slot: the calling engine's dispatchers LISTEN on it instead of polling hard.
 */
export const TARGETS_DUE_CHANNEL = 'targets_due';

export type TriggerSelection = { targetIds: string[] } | { count: number; oldestFirst: boolean };

export interface TriggerClaim {
  /** Made `Scheduled` by this statement, in request order (ids) or pick order (count). */
  scheduled: string[];
  notFound: string[];
  notPending: string[];
}

/** How a target leaves `Scheduled` without a call, or an attempt ends (see calling's call-outcome). */
export interface TargetOutcome {
  status: TargetStatus;
  resolution: string | null;
  category: string | null;
  subcategory: string | null;
  outcome: string;
  /** Set when the target goes back to `Scheduled` for another attempt, due then. */
  retryAt: Date | null;
}

export interface FinishedAttempt extends TargetOutcome {
  callLogId: number;
  durationSeconds: number;
  outputData: Record<string, unknown>;
  categorization: Record<string, unknown>;
  now: Date;
}

/** A finished attempt of a given target (the batch form of `finishAttempt`). */
export interface TargetAttempt extends FinishedAttempt {
  /** A target id is unique within its organization only (see docs/targets.md). */
  organizationId: string;
  targetId: string;
}

/** A target leaving `SMS Scheduled` (see `continueAfterTexts`). */
export interface TextContinuation extends TargetOutcome {
  organizationId: string;
  targetId: string;
  now: Date;
}

export interface Deferral {
  targetId: string;
  until: Date;
  hold: TargetHold | null;
}

export interface StartedCall {
  targetId: string;
  callLogId: number;
}

/** A campaign's targets counted (exact, one set-based read): what `GET /campaigns/{id}/stats` shows. */
export interface CampaignTargetCounts {
  total: number;
  byStatus: Record<string, number>;
  /** Targets with a category, by category (targets without one are not counted here). */
  byCategory: Record<string, number>;
  byResolution: Record<string, number>;
  inFlight: number;
  /** `Scheduled` and due at `now`. */
  dueNow: number;
  /** `Scheduled` and due after `now`. */
  dueLater: number;
  /** The earliest `scheduled_time` after `now` of a `Scheduled` target. */
  nextScheduledAt: Date | null;
  /** `Scheduled` targets a calling rule holds past `now`, by rule (`quiet_hours`: 12). */
  heldByRule: Record<string, number>;
  /**
   * The same held targets by rule and the time they are held to, rounded up to the minute (a few
   * rows however many targets), earliest first, then by rule.
   */
  heldUntil: { rule: string; until: Date; targets: number }[];
  /** The latest `scheduled_time` of a `Scheduled` target (null: none). */
  lastScheduledAt: Date | null;
}

/** What a person decided about a target `To review` (`POST /targets/{id}/review`). */
export type ReviewAction = 'done' | 'requeue';

export interface TargetReview {
  organizationId: string;
  targetId: string;
  action: ReviewAction;
  now: Date;
}

/** Which targets a step's data is for (one campaign of one organization). */
export interface WaitingScope {
  organizationId: string;
  campaignId: string;
}

/**
 * Every change of a target's status, owned by the target module: the events of the lifecycle that
 * domain/target-lifecycle.ts declares (statuses, guards), one method each. Each method is one
 * conditional, set-based statement on the expected status, so any number of workers and API processes can race on a
 * target and only one wins. Methods taking a `tx` write in the caller's transaction; those that make a
 * target due notify `TARGETS_DUE_CHANNEL` in it.
 *
 *   Pending ──trigger──▶ Scheduled ──startCalls──▶ In Progress ──finishAttempt──▶ Finished / Failed /
 *   Waiting ─moveWaiting─▶ Pending|Scheduled        │  ▲                          To review, or Scheduled
 *   Scheduled ──defer──▶ Scheduled (later)           │  └── retry (due at retryAt)
 *   Scheduled ──finishWithoutCall──▶ Finished / Failed (blacklisted, undialable)
 *   Pending / Scheduled / Waiting ──cancelOpen──▶ Finished (the campaign was cancelled)
 *   To review ──review──▶ Finished (done) / Scheduled due now (requeue: one more attempt)
 *   In Progress ──finishAttempt──▶ SMS Scheduled ──continueAfterText──▶ Scheduled (retry) / final
 */
export abstract class TargetTransitions {
  /** Pending targets of the campaign to `Scheduled` at `now`, atomically (no target twice). */
  abstract claimForTrigger(
    tx: Tx,
    campaignId: string,
    selection: TriggerSelection,
    now: Date,
  ): Promise<TriggerClaim>;

  /** Those of `targetIds` `Waiting` at `friendlyId` to `to` (`Scheduled` due at `now`); ids moved. */
  abstract moveWaiting(
    tx: Tx,
    scope: WaitingScope,
    targetIds: string[],
    friendlyId: string,
    to: 'Pending' | 'Scheduled',
    now: Date,
  ): Promise<string[]>;

  /**
   * Campaigns that have `Scheduled` targets due at `now` (at most `limit`), earliest due first, other
   * than those in `excluding` (paused campaigns, so that they never take the places of others).
   */
  abstract dueCampaigns(now: Date, limit: number, excluding: readonly string[]): Promise<string[]>;

  /** The earliest `scheduled_time` after `now` of any `Scheduled` target (null: none). */
  abstract nextDueAfter(now: Date): Promise<Date | null>;

  /** Targets of the campaign `In Progress` or `Post-processing` (`tx`: as seen inside it). */
  abstract countInFlight(tx: Tx | null, campaignId: string): Promise<number>;

  /**
   * Due `Scheduled` targets of the campaign, earliest first, without locking: candidates whose
   * decisions (dial plan, blacklist) are prepared before `lockDue` takes them.
   */
  abstract peekDue(campaignId: string, now: Date, limit: number): Promise<Target[]>;

  /**
   * Serialises claims of these campaigns until the transaction ends (sorted, so two claimers never
   * deadlock), so the in-flight count read next includes every call started before.
   */
  abstract lockCampaigns(tx: Tx, campaignIds: string[]): Promise<void>;

  /**
   * Those of `targetIds` still `Scheduled` and due, locked for this transaction; rows another claimer
   * holds are skipped (SKIP LOCKED), not waited for. Target ids are unique per organization only, so
   * every method that names targets by id takes their organization too.
   */
  abstract lockDue(
    tx: Tx,
    organizationId: string,
    targetIds: string[],
    now: Date,
  ): Promise<Target[]>;

  /**
   * `Scheduled` → `Scheduled` later, for each, held by the named calling rule (or by none: the
   * campaign's window); returns the ids moved. `now`: their updated_at (the `deferred` event's time).
   */
  abstract defer(
    tx: Tx,
    organizationId: string,
    deferrals: Deferral[],
    now: Date,
  ): Promise<string[]>;

  /**
   * `Scheduled` → `In Progress` with its new call log appended (attempts + 1, call_started_at,
   * last_call_date), for each; returns the started targets.
   */
  abstract startCalls(
    tx: Tx,
    organizationId: string,
    calls: StartedCall[],
    now: Date,
  ): Promise<Target[]>;

  /**
   * Applies each attempt's outcome to its target when still in flight with that call as its latest,
   * in one statement; returns the updated targets (an attempt already applied, or whose target moved
   * on, changes nothing). A target given twice with one call is finished by its first entry.
   */
  abstract finishAttempts(tx: Tx, attempts: TargetAttempt[]): Promise<Target[]>;

  /** `finishAttempts` for one target: the updated target, or null when nothing changed. */
  async finishAttempt(
    tx: Tx,
    organizationId: string,
    targetId: string,
    attempt: FinishedAttempt,
  ): Promise<Target | null> {
    const [updated] = await this.finishAttempts(tx, [{ ...attempt, organizationId, targetId }]);
    return updated ?? null;
  }

  /**
   * `SMS Scheduled` → what the call decided (its next attempt's `Scheduled`, due at `retryAt`, or a
   * final status), once its follow-up text is settled, in one statement; returns the moved targets (one
   * no longer `SMS Scheduled` is not touched). Notifies the dispatchers when one goes `Scheduled`.
   */
  abstract continueAfterTexts(tx: Tx, continuations: TextContinuation[]): Promise<Target[]>;

  /** A target that ends without a call (blacklisted, undialable): only from `Scheduled`. */
  abstract finishWithoutCall(
    tx: Tx,
    organizationId: string,
    targetId: string,
    outcome: TargetOutcome,
    now: Date,
  ): Promise<Target | null>;

  /**
   * The campaign's `Pending`, `Scheduled` and `Waiting` targets end with `outcome` (a cancelled
   * campaign), in one set-based statement in `tx`; returns the ended targets. Targets in flight are
   * not touched: their call ends and is recorded normally.
   */
  abstract cancelOpen(
    tx: Tx,
    campaignId: string,
    outcome: TargetOutcome,
    now: Date,
  ): Promise<Target[]>;

  /**
   * A person's review of a target `To review` of the organization: `done` → `Finished` (its outcome and
   * category kept), `requeue` → `Scheduled` due at `now` for one more attempt (even when the campaign's
   * max attempts were used: the attempt limit decides outcomes, not whether a call is placed). Either
   * way `statistics.review` records `{action, at}`. Only from `To review` (the statement's guard, so
   * two reviewers never both win); a requeue notifies the dispatchers on commit. Returns the updated
   * target, or null when it is not `To review` (or not the organization's).
   */
  abstract review(tx: Tx, review: TargetReview): Promise<Target | null>;

  /** Wakes the dispatchers when `tx` commits (the campaign's due targets may be claimed again). */
  abstract notifyDue(tx: Tx): Promise<void>;

  /** Counts of the campaign's targets at `now` (exact, set-based). */
  abstract countCampaign(campaignId: string, now: Date): Promise<CampaignTargetCounts>;

  /** The organization's target of that id, in `tx` (workers). */
  abstract findById(
    tx: Tx | null,
    organizationId: string,
    targetId: string,
  ): Promise<Target | null>;
}
