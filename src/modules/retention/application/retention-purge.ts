import { randomUUID } from 'node:crypto';
import { BeforeApplicationShutdown, Injectable, Logger } from '@nestjs/common';
import { Clock } from '../../../common/clock/clock.js';
import type { CreationPosition } from '../../../common/paging/paging.js';
import { ConflictError } from '../../../common/errors/domain-errors.js';
import { ExclusiveRunner } from '../../../common/persistence/exclusive-runner.js';
import { UnitOfWork } from '../../../common/persistence/unit-of-work.js';
import {
  partsRemovedBy,
  RETENTION_PARTS,
  type RetentionPart,
  type ScopedPolicy,
} from '../domain/retention-policy.js';
import type { RetentionRun } from '../domain/retention-run.js';
import { PatientDataCopies } from './patient-data-copies.js';
import { type DueBatch, TargetData } from './ports/patient-data-holders.js';
import { RetentionStore } from './ports/retention.store.js';

/** Targets per batch: one short transaction each, so no lock is held for long. */
export const PURGE_BATCH = 500;
const DAY_MS = 86_400_000;

/**
 * The share of the time a purge spends in its batches (RETENTION_PURGE_DUTY_CYCLE, d): after a batch
 * that took t ms it waits t * (1 - d) / d ms, so the API and the dialler have the database (its CPU,
 * its disk, its write-ahead log) to themselves the rest of the time. 1: no wait (the tests' setting).
 * A stopping process waits no more: its purge's batches run back to back until the job is handed back.
 */
export class PurgePacing {
  private stopping = false;
  private readonly pauses = new Set<() => void>();

  constructor(readonly dutyCycle: number = 1) {}

  /** Waits after a batch that took `batchMs`: less, or not at all, once `stop` is called. */
  pause(batchMs: number): Promise<void> {
    const ms = this.dutyCycle >= 1 ? 0 : (batchMs * (1 - this.dutyCycle)) / this.dutyCycle;
    if (ms <= 0 || this.stopping) return Promise.resolve();
    return new Promise((resolve) => {
      const wake = () => {
        clearTimeout(timer);
        this.pauses.delete(wake);
        resolve();
      };
      const timer = setTimeout(wake, ms);
      this.pauses.add(wake);
    });
  }

  /** Ends every pause now, and every later one before it starts. */
  stop(): void {
    this.stopping = true;
    for (const wake of this.pauses) wake();
  }
}

export interface PurgeOptions {
  trigger: 'schedule' | 'api';
  apiKeyId?: string | null;
  batchSize?: number;
  /** Called after each committed batch (a test stops the run here, as a killed process would). */
  afterBatch?: (purged: number) => Promise<void> | void;
}

/**
 * The purge job: for each part with a window, the organization's ended targets past it, in id order,
 * a batch per transaction. A batch removes the part everywhere, marks the targets and adds to the
 * run's counts in one commit, so a process killed between batches leaves every target either wholly
 * purged and counted or untouched: the next run (the same run record, resumed) finds only the rest.
 */
@Injectable()
export class RetentionPurge implements BeforeApplicationShutdown {
  private readonly logger = new Logger('Retention');

  constructor(
    private readonly store: RetentionStore,
    private readonly targets: TargetData,
    private readonly copies: PatientDataCopies,
    private readonly uow: UnitOfWork,
    private readonly clock: Clock,
    private readonly exclusive: ExclusiveRunner,
    private readonly pacing: PurgePacing,
  ) {}

  /** A stopping process does not wait out the purge's pacing. */
  beforeApplicationShutdown(): void {
    this.pacing.stop();
  }

  /** Every organization with a window (the scheduled job). */
  async purgeAll(): Promise<number> {
    let runs = 0;
    for (const organizationId of await this.store.organizationsWithWindows()) {
      const run = await this.exclusive.runExclusive(`retention-purge:${organizationId}`, () =>
        this.purgeOrganization(organizationId, { trigger: 'schedule' }),
      );
      if (run.ran) runs++;
    }
    return runs;
  }

  /** Runs now, one process at a time per organization (409 while another runs). */
  async runNow(organizationId: string, apiKeyId: string | null): Promise<RetentionRun> {
    const run = await this.exclusive.runExclusive(`retention-purge:${organizationId}`, () =>
      this.purgeOrganization(organizationId, { trigger: 'api', apiKeyId }),
    );
    if (!run.ran) throw new ConflictError('A purge of this organization is running');
    return run.result;
  }

  /** Resumes the organization's unfinished run, or starts one under the policies in force now. */
  async purgeOrganization(organizationId: string, options: PurgeOptions): Promise<RetentionRun> {
    const run =
      (await this.store.runningPurge(organizationId)) ??
      (await this.start(organizationId, options));
    const now = run.startedAt;
    const limit = options.batchSize ?? PURGE_BATCH;
    const overridden = run.policies.flatMap((p) => (p.campaignId === null ? [] : [p.campaignId]));
    for (const scoped of run.policies) {
      for (const part of RETENTION_PARTS) {
        const days = scoped.policy.windows[part];
        if (days === null) continue;
        await this.purgePart(
          run,
          scoped,
          overridden,
          part,
          new Date(now.getTime() - days * DAY_MS),
          limit,
          options,
        );
      }
    }
    const finished = await this.store.finishRun(null, run.id, this.clock.now());
    this.logger.log(
      { runId: run.id, organizationId, counts: finished.counts },
      'retention purge finished',
    );
    return finished;
  }

  private async start(organizationId: string, options: PurgeOptions): Promise<RetentionRun> {
    const policies: ScopedPolicy[] = await this.store.policies(organizationId);
    const run: RetentionRun = {
      id: randomUUID(),
      organizationId,
      kind: 'purge',
      trigger: options.trigger,
      status: 'running',
      policies,
      subject: null,
      reason: null,
      counts: {},
      startedAt: this.clock.now(),
      finishedAt: null,
      apiKeyId: options.apiKeyId ?? null,
    };
    await this.store.insertRun(null, run);
    return run;
  }

  private async purgePart(
    run: RetentionRun,
    scoped: ScopedPolicy,
    overridden: string[],
    part: RetentionPart,
    cutoff: Date,
    limit: number,
    options: PurgeOptions,
  ): Promise<void> {
    let after: CreationPosition | null = null;
    for (;;) {
      const batchStart = performance.now();
      const batch: DueBatch = await this.uow.run(async (tx) => {
        await this.store.commitLazily(tx);
        const due = await this.targets.lockDue(tx, {
          organizationId: run.organizationId,
          campaignId: scoped.campaignId,
          exceptCampaignIds: scoped.campaignId === null ? overridden : [],
          part,
          cutoff,
          after,
          limit,
        });
        if (due.ids.length === 0) return due;
        const parts = partsRemovedBy(part);
        const rows = await this.copies.purge(
          tx,
          run.organizationId,
          due.ids,
          parts,
          this.clock.now(),
        );
        await this.store.addCounts(tx, run.id, { [part]: due.ids.length, ...prefixed(rows) });
        return due;
      });
      const batchMs = performance.now() - batchStart;
      if (batch.ids.length > 0) await options.afterBatch?.(batch.ids.length);
      if (batch.next === null) return;
      after = batch.next;
      await this.pacing.pause(batchMs);
    }
  }
}

/** Rows changed per table, counted apart from the targets per part (`rows.call_logs`). */
export const prefixed = (rows: Record<string, number>) =>
  Object.fromEntries(Object.entries(rows).map(([table, n]) => [`rows.${table}`, n]));
