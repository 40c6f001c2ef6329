import type { Tx } from '../../../../common/persistence/unit-of-work.js';
import type { RetentionPolicy, ScopedPolicy } from '../../domain/retention-policy.js';
import type { RetentionRun } from '../../domain/retention-run.js';

/** The retention policies (the organization's and campaigns' own) and the record of runs. */
export abstract class RetentionStore {
  /**
   * The organization's policy (campaignId null) and every campaign's own, organization first. In
   * `tx` when a transaction is open (on embedded PGlite a statement beside it would wait for it).
   */
  abstract policies(organizationId: string, tx?: Tx | null): Promise<ScopedPolicy[]>;
  abstract savePolicy(
    organizationId: string,
    campaignId: string | null,
    policy: RetentionPolicy,
    at: Date,
  ): Promise<void>;
  /** Removes a campaign's own policy: its targets follow the organization's again. */
  abstract deleteCampaignPolicy(organizationId: string, campaignId: string): Promise<boolean>;
  /** Organizations with at least one window set: the ones a scheduled purge has work for. */
  abstract organizationsWithWindows(): Promise<string[]>;

  abstract insertRun(tx: Tx | null, run: RetentionRun): Promise<void>;
  /** The organization's purge left running by a process that stopped: the one to resume. */
  abstract runningPurge(organizationId: string): Promise<RetentionRun | null>;
  /** Adds to a run's counts, in the transaction of the batch it counts (counted once, with it). */
  abstract addCounts(tx: Tx, runId: string, counts: Record<string, number>): Promise<void>;
  /**
   * Lets `tx` commit without waiting for its write-ahead log to reach the disk (PostgreSQL's
   * `synchronous_commit = off` for this transaction only). For the purge's batches alone: a crash
   * may lose the last batches committed, and a purge batch lost that way is simply done again when
   * the run resumes (the purge is idempotent); its flushes no longer queue with the API's commits.
   */
  abstract commitLazily(tx: Tx): Promise<void>;
  abstract finishRun(tx: Tx | null, runId: string, at: Date): Promise<RetentionRun>;
  abstract runs(
    organizationId: string,
    skip: number,
    limit: number,
  ): Promise<{ runs: RetentionRun[]; total: number }>;
}
