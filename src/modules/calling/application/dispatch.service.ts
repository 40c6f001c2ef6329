import { Injectable, Logger } from '@nestjs/common';
import { Clock } from '../../../common/clock/clock';
import { CallFinishedOutbox } from '../../../common/events/call-finished';
import { Tx, UnitOfWork } from '../../../common/persistence/unit-of-work';
import { CallLogService } from '../../call-log/application/call-log.service';
import type { CallLog } from '../../call-log/domain/call-log';
import { CampaignReader } from '../../campaign/application/campaign-reader';
import type { Campaign } from '../../campaign/domain/campaign';
import { CallScheduler } from '../../target/application/ports/call-scheduler';
import type { Target } from '../../target/domain/target';
import {
  blacklistedDecision,
  CALL_OUTCOMES,
  CallOutcome,
  decideAfterAttempt,
  TargetDecision,
  undialableDecision,
  WORKER_LOST,
} from '../domain/call-outcome';
import { nextCommonOpening } from '../domain/calling-window';
import { chooseNumber } from '../domain/dial-plan';
import { CallingSettings } from './calling-settings';
import { CallProvider, CallResult } from './ports/call-provider';
import { NumberBlacklist } from './ports/number-blacklist';
import { DispatchRepository } from './ports/dispatch.repository';

/** A job may run a little before its start time (clock skew between processes and the database). */
const EARLY_TOLERANCE_MS = 2_000;
/** A job whose time differs more than this from the target's scheduled_time was superseded. */
const STALE_JOB_TOLERANCE_MS = 5_000;
/** The caller id shown when the campaign has none (the reference service's placeholder). */
export const DEFAULT_FROM = 'DeprecatedLocalTest';

export type DispatchOutcome =
  'skipped' | 'stale' | 'not_due' | 'deferred' | 'busy' | 'blacklisted' | 'undialable' | 'called';

/**
 * The dispatch job handler and the recovery sweep. Each step is a conditional transition, so the
 * handler can run twice, on any number of workers, and a step lost with a dead worker is picked up by
 * `sweep`. The call itself is placed outside any transaction.
 */
@Injectable()
export class DispatchService {
  private readonly logger = new Logger('Dispatch');

  constructor(
    private readonly targets: DispatchRepository,
    private readonly callLogs: CallLogService,
    private readonly campaigns: CampaignReader,
    private readonly blacklist: NumberBlacklist,
    private readonly provider: CallProvider,
    private readonly outbox: CallFinishedOutbox,
    private readonly scheduler: CallScheduler,
    private readonly uow: UnitOfWork,
    private readonly clock: Clock,
    private readonly settings: CallingSettings,
  ) {}

  /**
   * `scheduledFor`: the scheduled_time the job was enqueued for. A job for a time the target has since
   * moved away from (woken early from the waitlist, rescheduled) is stale and does nothing, so a
   * target never collects more than one live job.
   */
  async dispatch(targetId: string, scheduledFor?: Date | null): Promise<DispatchOutcome> {
    const now = this.clock.now();
    const target = await this.targets.findTarget(targetId);
    if (!target || target.status !== 'Scheduled') return 'skipped';
    if (
      scheduledFor &&
      target.scheduledTime &&
      Math.abs(scheduledFor.getTime() - target.scheduledTime.getTime()) > STALE_JOB_TOLERANCE_MS
    ) {
      return 'stale';
    }
    if (
      target.scheduledTime &&
      target.scheduledTime.getTime() > now.getTime() + EARLY_TOLERANCE_MS
    ) {
      // Early (the clocks of the database and this process disagree) or a duplicate job: look again at
      // the scheduled time. At worst two jobs wake up then, and only one can claim the target.
      const at = target.scheduledTime;
      await this.uow.run((tx) =>
        this.scheduler.scheduleCalls(tx, [
          { targetId: target.id, campaignId: target.campaignId, at },
        ]),
      );
      return 'not_due';
    }
    const campaign = await this.campaigns.findById(target.campaignId);
    if (!campaign) return 'skipped';

    const previous = await this.previousAttempt(target);
    const dial = chooseNumber(target, previous);
    if (!dial)
      return this.endWithoutCall(
        target,
        campaign,
        undialableDecision(campaign.type, 'no_phone_number'),
        'undialable',
      );

    const opening = nextCommonOpening([campaign.callingWindow, dial.operatingHours], now);
    if (opening === null) {
      return this.endWithoutCall(
        target,
        campaign,
        undialableDecision(campaign.type, 'no_calling_window'),
        'undialable',
      );
    }
    if (opening.getTime() > now.getTime()) {
      await this.uow.run(async (tx) => {
        await this.deferTo(tx, target, opening);
        // This target may have been woken for a free slot it will not use now: pass the slot on.
        await this.wakeNext(tx, target.campaignId, now);
      });
      return 'deferred';
    }

    if (campaign.blacklistIds.length > 0) {
      const blacklisted = await this.blacklist.findBlacklisted(campaign.blacklistIds, [
        dial.number,
      ]);
      if (blacklisted.has(dial.number)) {
        return this.endWithoutCall(
          target,
          campaign,
          blacklistedDecision(campaign.type),
          'blacklisted',
        );
      }
    }

    const started = await this.uow.run(async (tx) => {
      await this.targets.lockCampaignSlots(tx, target.campaignId);
      // Read after the lock: waiting for it can take a while, and call_started_at must be true.
      const now = this.clock.now();
      const result = await this.targets.startCall(tx, target, campaign.maxConcurrentCalls, now);
      if (result.kind === 'busy') {
        // Woken when a call of the campaign ends; the backstop time only matters if no wake-up comes
        // (e.g. max_concurrent_calls was raised). Jitter spreads the backstops of a big backlog.
        const wait = this.settings.slotWaitSeconds * 1000;
        const until = new Date(now.getTime() + wait + Math.floor(Math.random() * wait));
        if (await this.targets.waitForSlot(tx, target, now, until)) {
          await this.scheduler.scheduleCalls(tx, [
            { targetId: target.id, campaignId: target.campaignId, at: until },
          ]);
        }
        return null;
      }
      if (result.kind !== 'started') return null;
      const callLogId = await this.callLogs.start(tx, {
        organizationId: target.organizationId,
        campaignId: target.campaignId,
        targetId: target.id,
        attempt: result.target.attempts,
        to: dial.number,
        from: campaign.callerId ?? DEFAULT_FROM,
        provider: this.provider.name,
        startedAt: now,
        leaseExpiresAt: this.leaseFrom(now),
      });
      await this.targets.attachCallLog(tx, target.id, callLogId);
      return { target: result.target, callLogId };
    });
    if (!started) return 'busy';

    const result = await this.placeCall(started.target, campaign, started.callLogId, dial.number);
    await this.completeCall(started.target, campaign, started.callLogId, result);
    return 'called';
  }

  /**
   * Recovers calls whose worker died (lease run out) or that never ended, and re-dispatches due
   * targets whose job was lost. Safe on every worker at once: each step is conditional.
   */
  async sweep(): Promise<{ recovered: number; rescued: number }> {
    const now = this.clock.now();
    const stale = await this.callLogs.findRecoverable(
      now,
      new Date(now.getTime() - this.settings.staleCallMinutes * 60_000),
    );
    let recovered = 0;
    for (const call of stale) {
      try {
        if (await this.recover(call.callLogId)) recovered++;
      } catch (err) {
        this.logger.warn({ err, callLogId: call.callLogId }, 'recovery failed; it will be retried');
      }
    }
    await this.targets.pruneWaitlist();
    const rescued = await this.uow.run(async (tx) => {
      const overdue = await this.targets.rescueOverdue(
        tx,
        new Date(now.getTime() - this.settings.overdueGraceSeconds * 1000),
        now,
        500,
      );
      await this.scheduler.scheduleCalls(
        tx,
        overdue.map((t) => ({ targetId: t.id, campaignId: t.campaignId, at: now })),
      );
      return overdue.length;
    });
    return { recovered, rescued };
  }

  /** One stale call to a final state (or a retry): its outcome if it had one, else a technical failure. */
  async recover(callLogId: number): Promise<boolean> {
    const log = await this.callLogs.findById(callLogId);
    if (!log || log.leaseExpiresAt === null) return false;
    const campaign = await this.campaigns.findById(log.campaignId);
    if (!campaign) {
      await this.uow.run((tx) => this.callLogs.releaseLease(tx, log.id));
      return false;
    }
    if (log.endedAt === null) {
      const lost: CallResult = {
        outcome: 'TECHNICAL_FAILURE',
        endedReason: WORKER_LOST,
        durationSeconds: 0,
        providerCallId: null,
        transcripts: [],
        agentData: log.agentData,
        postCallData: null,
        qa: null,
        recordingUrls: [],
        outputData: {},
      };
      await this.completeCall({ id: log.targetId } as Target, campaign, log.id, lost, log);
      return true;
    }
    const outcome = (CALL_OUTCOMES as readonly string[]).includes(log.outcome ?? '')
      ? (log.outcome as CallOutcome)
      : 'TECHNICAL_FAILURE';
    // The worker died after recording the call and before applying it: apply what it recorded.
    await this.applyOutcome(
      log,
      campaign,
      outcome,
      log.outputData ?? {},
      log.subcategory,
      log.endedReason === WORKER_LOST,
    );
    return true;
  }

  private async previousAttempt(target: Target): Promise<CallLog | null> {
    const ids = target.callLogIds ?? [];
    return ids.length > 0 ? this.callLogs.findById(ids[ids.length - 1]) : null;
  }

  private leaseFrom(now: Date): Date {
    return new Date(now.getTime() + this.settings.callLeaseSeconds * 1000);
  }

  /** The first target waiting for a slot of the campaign is dispatched now (if any waits). */
  private async wakeNext(tx: Tx, campaignId: string, now: Date): Promise<void> {
    const woken = await this.targets.wakeNextWaiting(tx, campaignId, now);
    await this.scheduler.scheduleCalls(
      tx,
      woken.map((w) => ({ targetId: w.id, campaignId: w.campaignId, at: now })),
    );
  }

  private async deferTo(tx: Tx, target: Target, until: Date): Promise<void> {
    if (await this.targets.defer(tx, target.id, until)) {
      await this.scheduler.scheduleCalls(tx, [
        { targetId: target.id, campaignId: target.campaignId, at: until },
      ]);
    }
  }

  private async endWithoutCall(
    target: Target,
    campaign: Campaign,
    decision: TargetDecision,
    kind: DispatchOutcome,
  ): Promise<DispatchOutcome> {
    const now = this.clock.now();
    await this.uow.run(async (tx) => {
      const ended = await this.targets.finishWithoutCall(tx, target.id, decision, now);
      if (!ended) return;
      await this.wakeNext(tx, ended.campaignId, now);
      await this.outbox.record(tx, {
        organizationId: ended.organizationId,
        campaignId: ended.campaignId,
        targetId: ended.id,
        callLogId: null,
        attempt: ended.attempts,
        maxAttempts: campaign.maxAttempts,
        nextAttemptScheduled: null,
        status: ended.status,
        resolution: ended.resolution,
        category: ended.category,
        subcategory: ended.subcategory,
      });
    });
    return kind;
  }

  /** Places the call, renewing the lease while it runs so a sweep knows this worker is alive. */
  private async placeCall(
    target: Target,
    campaign: Campaign,
    callLogId: number,
    to: string,
  ): Promise<CallResult> {
    const renewEvery = Math.max(250, (this.settings.callLeaseSeconds * 1000) / 3);
    const timer = setInterval(() => {
      this.callLogs.renewLease(callLogId, this.leaseFrom(this.clock.now())).catch((err) => {
        this.logger.warn({ err, callLogId }, 'lease renewal failed');
      });
    }, renewEvery);
    try {
      return await this.provider.placeCall({
        callLogId,
        targetId: target.id,
        campaignId: campaign.id,
        campaignType: campaign.type,
        attempt: target.attempts,
        to,
        from: campaign.callerId ?? DEFAULT_FROM,
        inputData: target.inputData,
      });
    } catch (err) {
      this.logger.warn({ err, callLogId }, 'call provider failed');
      return {
        outcome: 'TECHNICAL_FAILURE',
        endedReason: 'provider-error',
        durationSeconds: 0,
        providerCallId: null,
        transcripts: [],
        agentData: {},
        postCallData: null,
        qa: null,
        recordingUrls: [],
        outputData: {},
      };
    } finally {
      clearInterval(timer);
    }
  }

  /** `In Progress` → `Post-processing` with the call's record, then the outcome. */
  private async completeCall(
    target: Pick<Target, 'id'>,
    campaign: Campaign,
    callLogId: number,
    result: CallResult,
    knownLog?: CallLog,
  ): Promise<void> {
    const ended = this.clock.now();
    const moved = await this.uow.run(async (tx) => {
      const completed = await this.callLogs.complete(tx, callLogId, {
        outcome: result.outcome,
        endedReason: result.endedReason,
        providerCallId: result.providerCallId,
        callCategorization: this.categorization(
          campaign,
          result.outcome,
          result.subcategory ?? null,
        ),
        agentData: result.agentData,
        postCallData: result.postCallData,
        qa: result.qa,
        transcripts: result.transcripts,
        recordingUrls: result.recordingUrls,
        outputData: result.outputData,
        subcategory: result.subcategory ?? null,
        endedAt: ended,
        durationSeconds: Math.round(result.durationSeconds),
      });
      return completed && (await this.targets.markPostProcessing(tx, target.id, callLogId, ended));
    });
    // Recovered (or completed) by someone else meanwhile: their outcome stands.
    if (!moved) return;
    const log = knownLog ?? (await this.callLogs.findById(callLogId));
    if (!log) return;
    await this.applyOutcome(
      { ...log, durationSeconds: Math.round(result.durationSeconds) },
      campaign,
      result.outcome,
      result.outputData,
      result.subcategory,
      result.endedReason === WORKER_LOST,
    );
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

  private async applyOutcome(
    log: CallLog,
    campaign: Campaign,
    outcome: CallOutcome,
    outputData: Record<string, unknown>,
    subcategory?: string | null,
    lost = false,
  ): Promise<void> {
    const now = this.clock.now();
    const decision = decideAfterAttempt({
      campaignType: campaign.type,
      maxAttempts: campaign.maxAttempts,
      retryDelayMinutes: campaign.retryDelayMinutes,
      attempt: log.attempt,
      outcome,
      now,
      lost,
    });
    if (subcategory) decision.subcategory = subcategory;
    await this.uow.run(async (tx) => {
      const updated = await this.targets.finishAttempt(tx, log.targetId, {
        ...decision,
        callLogId: log.id,
        durationSeconds: log.durationSeconds ?? 0,
        outputData,
        categorization: {
          category: decision.category,
          subcategory: decision.subcategory,
          resolution: decision.resolution,
          outcome,
          call_log_id: log.id,
        },
        now,
      });
      await this.callLogs.releaseLease(tx, log.id);
      if (!updated) return;
      // This call's slot is free: hand it to the campaign's first waiting target.
      await this.wakeNext(tx, updated.campaignId, now);
      if (decision.retryAt) {
        await this.scheduler.scheduleCalls(tx, [
          { targetId: updated.id, campaignId: updated.campaignId, at: decision.retryAt },
        ]);
      }
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
    });
  }
}
