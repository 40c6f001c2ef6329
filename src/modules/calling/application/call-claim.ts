import { Injectable } from '@nestjs/common';
import { Clock } from '../../../common/clock/clock.js';
import { Tx, UnitOfWork } from '../../../common/persistence/unit-of-work.js';
import { CampaignReader } from '../../campaign/application/ports/campaign-reader.js';
import type { Campaign } from '../../campaign/domain/campaign.js';
import { TargetEventLog, WORKER } from '../../target/application/ports/target-event-log.js';
import { Deferral, TargetTransitions } from '../../target/application/ports/target-transitions.js';
import { CAMPAIGN_CANCELLED, utcWords } from '../../target/domain/waiting-reason.js';
import type { Target } from '../../target/domain/target.js';
import {
  CallProvider,
  ConnectionUnusableError,
} from '../../telephony/application/ports/call-provider.js';
import { Outbox } from '../../webhook/application/ports/outbox.js';
import { cancelledDecision } from '../domain/call-outcome.js';
import { CallDecisions, Plan } from './call-decisions.js';
import { ClaimedCall } from './call-placement.js';
import { CallStarts } from './call-starts.js';
import { endedWithoutCall } from './ended-without-call.js';

/** A campaign whose provider connection cannot be used holds its due calls this long, then tries again. */
export const UNUSABLE_CONNECTION_RETRY_MS = 60_000;

/** The calling rule named on a target held because its campaign's connection cannot be used. */
export const UNUSABLE_CONNECTION_HOLD = 'provider_connection';

/** What one claim did. */
export interface ClaimResult {
  claimed: ClaimedCall[];
  /** Targets started, deferred, ended or left for the next round. */
  acted: number;
  /** Due targets were seen but others held them (another dispatcher). */
  contended: boolean;
  /** The provider's per-second budget ran out: nothing more before this time. */
  rateLimitedUntil: Date | null;
}

/**
 * Claiming a campaign's due targets straight from `targets` (`Scheduled`, `scheduled_time <= now`) in
 * one short transaction: each is deferred to the next opening of its windows, ended without a call
 * (no number, windows never overlap, blacklisted, refused), or started (`In Progress`, attempts + 1,
 * an open call log with a placing deadline) while the campaign has fewer than `max_concurrent_calls`
 * in flight and the provider's per-second budget allows. Claims of one campaign are serialised by an
 * advisory lock, so the cap holds across processes. `CallDecisions` decides, `CallStarts` starts.
 */
@Injectable()
export class CallClaim {
  constructor(
    private readonly targets: TargetTransitions,
    private readonly campaigns: CampaignReader,
    private readonly decisions: CallDecisions,
    private readonly starts: CallStarts,
    private readonly events: TargetEventLog,
    private readonly outbox: Outbox,
    private readonly uow: UnitOfWork,
    private readonly clock: Clock,
  ) {}

  async claim(campaign: Campaign, provider: CallProvider, limit: number): Promise<ClaimResult> {
    const none: ClaimResult = { claimed: [], acted: 0, contended: false, rateLimitedUntil: null };
    const now = this.clock.now();
    const candidates = await this.targets.peekDue(campaign.id, now, limit);
    if (candidates.length === 0) return none;
    const plans = await this.decisions.plan(campaign, candidates, now);
    return this.uow.run(async (tx) => {
      // Pause and cancel take this same lock around their state change (CampaignControl), so the
      // state read after it is the latest: a pause or cancel that has returned is seen, and one under
      // way waits for this claim to commit (its calls started before the pause returned).
      await this.targets.lockCampaigns(tx, [campaign.id]);
      if ((await this.campaigns.lockedState(tx, campaign.id)) !== 'active') return none;
      // Read after the lock: waiting for it can take a while, and call_started_at must be true.
      const at = this.clock.now();
      // Target ids are unique per organization only: each statement below names the campaign's.
      const ids = candidates.map((t) => t.id);
      const due = await this.targets.lockDue(tx, campaign.organizationId, ids, at);
      await this.decisions.screen(tx, campaign, due, plans, at);
      await this.decisions.audit(tx, campaign, due, plans, at);
      const ended = await this.endWithoutCall(tx, campaign, due, plans, at);
      const deferred = await this.deferHeld(tx, campaign, due, plans, at);
      const calls = due.flatMap((target) => {
        const plan = plans.get(target.id)!;
        return plan.kind === 'call' ? [{ target, to: plan.to }] : [];
      });
      const { admitted, rateLimitedUntil } = await this.starts.admit(
        tx,
        campaign,
        provider,
        calls,
        at,
      );
      const claimed = await this.starts.start(tx, campaign, provider, admitted, at);
      const nextRound = due.filter((t) => plans.get(t.id)!.kind === 'next_round').length;
      return {
        claimed,
        acted: ended + deferred + claimed.length + nextRound,
        contended: due.length < candidates.length,
        rateLimitedUntil,
      };
    });
  }

  /**
   * The campaign's due targets (a claim's batch) wait UNUSABLE_CONNECTION_RETRY_MS, held with the
   * connection's problem as their waiting reason and timeline words; the next batch goes the next
   * round. So a connection that cannot be used costs one statement a minute, not a loop.
   */
  async holdForConnection(
    campaign: Campaign,
    problem: ConnectionUnusableError,
    limit: number,
  ): Promise<number> {
    const now = this.clock.now();
    const until = new Date(now.getTime() + UNUSABLE_CONNECTION_RETRY_MS);
    const reason = `${problem.message}; calls wait, next try ${utcWords(until)}`;
    const candidates = await this.targets.peekDue(campaign.id, now, limit);
    if (candidates.length === 0) return 0;
    const held = await this.uow.run(async (tx) => {
      await this.targets.lockCampaigns(tx, [campaign.id]);
      const due = await this.targets.lockDue(
        tx,
        campaign.organizationId,
        candidates.map((t) => t.id),
        now,
      );
      await this.events.attribute(tx, { actor: WORKER, reason });
      return this.targets.defer(
        tx,
        campaign.organizationId,
        due.map((t) => ({
          targetId: t.id,
          until,
          hold: { rule: UNUSABLE_CONNECTION_HOLD, reason },
        })),
        now,
      );
    });
    return held.length;
  }

  /**
   * A cancelled campaign's targets that became `Scheduled` after the cancel (a trigger that raced it)
   * end as the cancel ended the others, with their notifications.
   */
  async endCancelled(campaign: Campaign): Promise<number> {
    return this.uow.run(async (tx) => {
      await this.targets.lockCampaigns(tx, [campaign.id]);
      await this.events.attribute(tx, { actor: WORKER, reason: CAMPAIGN_CANCELLED });
      const ended = await this.targets.cancelOpen(
        tx,
        campaign.id,
        cancelledDecision(campaign.type),
        this.clock.now(),
      );
      await this.outbox.record(
        tx,
        ended.map((done) => endedWithoutCall(done, campaign)),
      );
      return ended.length;
    });
  }

  /** The targets whose plan ends them, with their notifications; how many ended. */
  private async endWithoutCall(
    tx: Tx,
    campaign: Campaign,
    due: Target[],
    plans: Map<string, Plan>,
    at: Date,
  ): Promise<number> {
    const endings = due.flatMap((target) => {
      const plan = plans.get(target.id)!;
      return plan.kind === 'end' ? [{ target, plan }] : [];
    });
    if (endings.length === 0) return 0;
    // One attribution for every target this claim ends without a call (not one per target).
    await this.events.attribute(tx, {
      actor: WORKER,
      reasonsByTarget: Object.fromEntries(
        endings.map(({ target, plan }) => [target.id, plan.reason]),
      ),
    });
    const ended: Target[] = [];
    for (const { target, plan } of endings) {
      const done = await this.targets.finishWithoutCall(
        tx,
        campaign.organizationId,
        target.id,
        plan.decision,
        at,
      );
      if (done) ended.push(done);
    }
    await this.outbox.record(
      tx,
      ended.map((done) => endedWithoutCall(done, campaign)),
    );
    return ended.length;
  }

  /** The targets whose plan defers them, with the rule or check that holds them; how many moved. */
  private async deferHeld(
    tx: Tx,
    campaign: Campaign,
    due: Target[],
    plans: Map<string, Plan>,
    at: Date,
  ): Promise<number> {
    const deferrals: Deferral[] = [];
    const reasons: Record<string, string> = {};
    for (const target of due) {
      const plan = plans.get(target.id)!;
      if (plan.kind !== 'defer') continue;
      const hold = plan.held
        ? { rule: plan.held.rule, reason: plan.held.reason }
        : (plan.check ?? null);
      deferrals.push({ targetId: target.id, until: plan.until, hold });
      reasons[target.id] = plan.reason;
    }
    if (deferrals.length > 0) {
      await this.events.attribute(tx, { actor: WORKER, reasonsByTarget: reasons });
    }
    return (await this.targets.defer(tx, campaign.organizationId, deferrals, at)).length;
  }
}
