import type { FoldReport } from '../../../../common/persistence/count-folding.js';
import { Tx } from '../../../../common/persistence/unit-of-work.js';
import { CallLog, CallLogCompletion, NewCallLog } from '../../domain/call-log.js';

export interface CallLogFilter {
  organizationId: string;
  campaignId?: string | null;
  /** Only these campaigns' logs (a credential limited to them); null or absent: every campaign. */
  campaignIds?: string[] | null;
  from?: Date | null;
  to?: Date | null;
}

/** A campaign's calls counted (exact, one set-based read). */
export interface CampaignCallCounts {
  /** Call logs of the campaign: attempts made. */
  calls: number;
  /** Not ended yet. */
  open: number;
  ended: number;
  /** Ended with one of the given connected outcomes. */
  connected: number;
  /** Mean duration of the connected calls, in seconds (null: none). */
  averageConnectedSeconds: number | null;
  /** Started at or after `since`. */
  startedSince: number;
}

/** Which calls a live-call lookup looks among: one call log, the calls to a number, or to targets. */
export type CallLookup = { id: number } | { to: string } | { targetIds: string[] };

export interface CallLogCompletionEntry {
  id: number;
  completion: CallLogCompletion;
}

export abstract class CallLogRepository {
  /**
   * The campaign's last `window` calls that ended after `endedAfter` (null: ever), by end time, in one
   * read: how many there are (at most `window`) and how many of them ended with `outcome`.
   */
  abstract recentOutcomeShare(
    campaignId: string,
    window: number,
    outcome: string,
    endedAfter: Date | null,
  ): Promise<{ ended: number; matching: number }>;
  /** Counts of the campaign's calls; `connectedOutcomes` says which outcomes reached someone. */
  abstract countCampaign(
    campaignId: string,
    connectedOutcomes: readonly string[],
    since: Date,
  ): Promise<CampaignCallCounts>;
  /**
   * Inserts the logs (at most one per target) in one statement; their ids in the same order (a
   * sequence: increasing, never reused).
   */
  abstract createMany(tx: Tx, logs: NewCallLog[]): Promise<number[]>;
  /**
   * Fills the outcome of each call that has not ended yet, in one statement; returns the ids it closed
   * (a call that already ended is left as it is: idempotent). An id given twice is closed by its first
   * entry.
   */
  abstract completeMany(tx: Tx, entries: CallLogCompletionEntry[]): Promise<number[]>;
  /** `completeMany` for one call; false when it already ended. */
  async complete(tx: Tx, id: number, completion: CallLogCompletion): Promise<boolean> {
    return (await this.completeMany(tx, [{ id, completion }])).length === 1;
  }
  /**
   * The provider accepted the calls: each keeps its provider id and its deadline moves to `deadlineAt`,
   * only while the call is open and has no provider id yet. One statement (in `tx` when given); the
   * ids it changed.
   */
  abstract recordProviderCallIds(
    entries: { id: number; providerCallId: string; deadlineAt: Date }[],
    tx?: Tx | null,
  ): Promise<number[]>;
  /** `recordProviderCallIds` for one call; false when it changed nothing. */
  async recordProviderCallId(
    tx: Tx | null,
    id: number,
    providerCallId: string,
    deadlineAt: Date,
  ): Promise<boolean> {
    return (
      (await this.recordProviderCallIds([{ id, providerCallId, deadlineAt }], tx)).length === 1
    );
  }
  /**
   * Open calls past their deadline (at most `limit`), each taken for one look by moving its deadline to
   * `retryAt`: concurrent sweeps take different calls, and a sweeper that dies leaves them for later.
   */
  abstract claimOverdue(now: Date, retryAt: Date, limit: number): Promise<CallLog[]>;
  /** The logs of these ids (ids that name none, or no bigint, are left out). */
  abstract findByIds(ids: number[], tx?: Tx | null): Promise<CallLog[]>;
  /** `findByIds` for one id; null when it names no log. */
  async findById(id: number, tx: Tx | null = null): Promise<CallLog | null> {
    return (await this.findByIds([id], tx))[0] ?? null;
  }
  abstract findByProviderCallIds(provider: string, providerCallIds: string[]): Promise<CallLog[]>;
  /**
   * The organization's call the lookup names: among its matches, a call not ended yet first (the
   * latest started), else the latest started of the ended ones. Null when none matches. With
   * `campaignIds`, only calls of those campaigns match (a credential limited to them).
   */
  abstract findLatest(
    organizationId: string,
    lookup: CallLookup,
    campaignIds?: string[] | null,
  ): Promise<CallLog | null>;
  /** Ordered by id; `total` counts every match. */
  abstract list(
    filter: CallLogFilter,
    offset: number,
    limit: number,
  ): Promise<{ items: CallLog[]; total: number }>;
  /**
   * Folds the count and hour rows `list` and the stats sum (every organization's that are due, under
   * the one policy of common/persistence/count-folding.ts): the folding job's work, never a read's.
   */
  abstract foldCounts(): Promise<FoldReport>;
}
