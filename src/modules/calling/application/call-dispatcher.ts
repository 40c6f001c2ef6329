import { Injectable, Logger } from '@nestjs/common';
import { Clock } from '../../../common/clock/clock.js';
import { CallFinishedOutbox } from '../../webhook/application/ports/call-finished-outbox.js';
import { Tx, UnitOfWork } from '../../../common/persistence/unit-of-work.js';
import { BlacklistService } from '../../blacklist/application/blacklist.service.js';
import { CallLogService } from '../../call-log/application/call-log.service.js';
import type { CallLog } from '../../call-log/domain/call-log.js';
import { CampaignReader } from '../../campaign/application/ports/campaign-reader.js';
import {
  autoPauseReason,
  autoPauseTrips,
  TECHNICAL_FAILURE,
  type Campaign,
} from '../../campaign/domain/campaign.js';
import { CampaignControl } from './campaign-control.js';
import { TargetEventLog, WORKER } from '../../target/application/ports/target-event-log.js';
import { Deferral, TargetTransitions } from '../../target/application/ports/target-transitions.js';
import {
  CAMPAIGN_CANCELLED,
  outsideWindowReason,
  utcWords,
} from '../../target/domain/waiting-reason.js';
import type { Target } from '../../target/domain/target.js';
import { endedWithoutCall } from './ended-without-call.js';
import {
  blacklistedDecision,
  refusedByCheckDecision,
  doNotCallDecision,
  cancelledDecision,
  TargetDecision,
  undialableDecision,
} from '../domain/call-outcome.js';
import {
  decideCall,
  type CallingDecision,
  type CallingRulesInput,
  type Held,
} from '../../telephony/domain/calling-rules.js';
import { chooseNumber } from '../../telephony/domain/dial-plan.js';
import { ComplianceService } from '../../compliance/application/compliance.service.js';
import type { NewComplianceDecision } from '../../compliance/domain/compliance-decision.js';
import { CallPlacement, ClaimedCall } from './call-placement.js';
import { CallingSettings } from './calling-settings.js';
import { CallProvider, CallProviders, ConnectionUnusableError } from '../../telephony/application/ports/call-provider.js';
import { PlacementRate } from './ports/placement-rate.js';
import { PreDialCall, PreDialChecks, PreDialVerdict } from './ports/pre-dial-check.js';
import type { TargetHold } from '../../target/domain/target.js';

/** The caller id shown when the campaign has none (the reference service's placeholder). */
export const DEFAULT_FROM = 'DeprecatedLocalTest';

/**
 * What a due target gets. Decided in plain TypeScript before the claim transaction from what does not
 * change under it (windows, zones, policy, blacklists); a `call` is decided again inside it with the
 * number's recent calls and do-not-call entry, read under the number's lock. `held` names the rule of
 * the organization's policy that deferred or refused it (audited); null for the campaign's own window
 * or an ending without a rule (no number, blacklisted).
 */
type Plan =
  /** `check`: the team's pre-dial check that holds it (not a rule of the policy: not audited). */
  | { kind: 'defer'; until: Date; reason: string; held: Held | null; check?: TargetHold }
  | { kind: 'end'; decision: TargetDecision; reason: string; held: Held | null }
  | { kind: 'call'; to: string; rules: CallingRulesInput }
  /** A cap would hold it only because of a call to its number this claim starts: next round. */
  | { kind: 'next_round' };

export interface RoundResult {
  /** Targets started, deferred or ended: there may be more to do at once. */
  acted: number;
  placed: number;
  /** Due targets were seen but others held them (another dispatcher): look again shortly. */
  contended: boolean;
  /** The provider's per-second budget ran out: nothing more before this time. */
  rateLimitedUntil: Date | null;
  /** This process has no room for more placements now. */
  placementsFull: boolean;
}

/**
 * Claims due targets straight from `targets` (`Scheduled`, `scheduled_time <= now`), campaign by
 * campaign, in short transactions: each due target is deferred to the next opening of its windows,
 * ended without a call (no number, windows never overlap, blacklisted), or started (`In Progress`,
 * attempts + 1, an open call log with a placing deadline) while the campaign has fewer than
 * `max_concurrent_calls` in flight and the provider's per-second budget allows. Claims of one campaign
 * are serialised by an advisory lock, so the cap holds across processes. Started calls are handed to
 * `CallPlacement`, outside the transaction.
 */
/** How long a call waits when a pre-dial check fails to answer (it is asked again then). */
const CHECK_FAILED_RETRY_MS = 60_000;

/** How long the list of campaigns with due targets is reused while claims keep succeeding. */
const DUE_CAMPAIGNS_TTL_MS = 1000;

/** A campaign whose provider connection cannot be used holds its due calls this long, then tries again. */
export const UNUSABLE_CONNECTION_RETRY_MS = 60_000;

/** The calling rule named on a target held because its campaign's connection cannot be used. */
export const UNUSABLE_CONNECTION_HOLD = 'provider_connection';

@Injectable()
export class CallDispatcher {
  private readonly logger = new Logger('Dispatcher');
  /**
   * Campaigns with due targets, as last read. Finding them groups every due row, so a backlog is not
   * regrouped for each batch: the list is reused for a second while claims succeed, and read again
   * after an idle round, a notification (`forgetDueCampaigns`) or a second.
   */
  private dueCampaigns: { ids: string[]; readAt: number } | null = null;

  constructor(
    private readonly targets: TargetTransitions,
    private readonly callLogs: CallLogService,
    private readonly campaigns: CampaignReader,
    private readonly blacklist: BlacklistService,
    private readonly outbox: CallFinishedOutbox,
    private readonly rate: PlacementRate,
    private readonly placement: CallPlacement,
    private readonly providers: CallProviders,
    private readonly uow: UnitOfWork,
    private readonly clock: Clock,
    private readonly settings: CallingSettings,
    private readonly events: TargetEventLog,
    private readonly control: CampaignControl,
    private readonly compliance: ComplianceService,
    private readonly checks: PreDialChecks,
  ) {}

  async round(): Promise<RoundResult> {
    const result: RoundResult = {
      acted: 0,
      placed: 0,
      contended: false,
      rateLimitedUntil: null,
      placementsFull: false,
    };
    const campaignIds = await this.campaignsWithDueTargets();
    for (const campaignId of campaignIds) {
      const room = this.placement.free();
      if (room === 0) {
        result.placementsFull = true;
        break;
      }
      const campaign = await this.campaigns.findById(campaignId);
      // Paused: its due targets wait (checked again under the lock below, which is what counts).
      if (!campaign || campaign.state === 'paused') continue;
      if (campaign.state === 'cancelled') {
        result.acted += await this.endCancelled(campaign);
        continue;
      }
      if (await this.tripBreaker(campaign)) {
        // The campaign left the due list: read it again without waiting for the cache to expire.
        this.forgetDueCampaigns();
        continue;
      }
      const slots =
        campaign.maxConcurrentCalls - (await this.targets.countInFlight(null, campaignId));
      if (slots <= 0) continue;
      // One organization's connection that cannot be used must not stall the others, nor be tried
      // again every round: its due calls are held a while, saying why.
      const provider = await this.providers.forCampaign(campaign).catch(async (err: unknown) => {
        if (err instanceof ConnectionUnusableError) {
          result.acted += await this.holdForConnection(campaign, err);
        } else {
          this.logger.warn(
            { err, campaignId: campaign.id, connectionId: campaign.providerConnectionId },
            "resolving the campaign's provider failed; its calls wait",
          );
        }
        return null;
      });
      if (!provider) continue;
      const claimed = await this.claim(
        campaign,
        provider,
        Math.min(this.settings.claimBatchSize, room, slots),
        result,
      );
      if (claimed.length > 0) this.placement.place(claimed);
      result.placed += claimed.length;
      if (result.rateLimitedUntil) break;
    }
    if (result.acted === 0) this.forgetDueCampaigns();
    return result;
  }

  /**
   * The campaign's due targets (a claim's batch) wait UNUSABLE_CONNECTION_RETRY_MS, held with the
   * connection's problem as their waiting reason and timeline words; the next batch goes the next
   * round. So a connection that cannot be used costs one statement a minute, not a loop.
   */
  private async holdForConnection(
    campaign: Campaign,
    problem: ConnectionUnusableError,
  ): Promise<number> {
    const now = this.clock.now();
    const until = new Date(now.getTime() + UNUSABLE_CONNECTION_RETRY_MS);
    const reason = `${problem.message}; calls wait, next try ${utcWords(until)}`;
    const candidates = await this.targets.peekDue(campaign.id, now, this.settings.claimBatchSize);
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
    this.logger.warn(
      { campaignId: campaign.id, connection: problem.connectionId, held: held.length },
      problem.message,
    );
    return held.length;
  }

  /**
   * The circuit breaker (issue 12), before the campaign's claim: one read of its last `window` ended
   * calls; when more than `max_failure_ratio` of them failed technically, the campaign pauses itself
   * through CampaignControl (the claim below then sees `paused` under its lock and starts nothing).
   */
  private async tripBreaker(campaign: Campaign): Promise<boolean> {
    const setting = campaign.autoPause;
    if (!setting) return false;
    const { ended, matching } = await this.callLogs.recentOutcomeShare(
      campaign.id,
      setting.window,
      TECHNICAL_FAILURE,
      // Only calls that ended since the last state change (a resume): resuming starts a fresh window,
      // else the failures that tripped the breaker would pause the campaign again at once.
      campaign.stateChangedAt,
    );
    const recent = { ended, failures: matching };
    if (!autoPauseTrips(setting, recent)) return false;
    const paused = await this.control.autoPause(campaign, {
      reason: autoPauseReason(setting, recent),
      failureRatio: matching / ended,
      window: setting.window,
    });
    if (paused) this.logger.warn({ campaignId: campaign.id, ended, matching }, 'auto-paused');
    // Paused now or meanwhile: either way nothing is claimed for it this round.
    return true;
  }

  /** Something became due (a notification): read the campaigns with due targets again. */
  forgetDueCampaigns(): void {
    this.dueCampaigns = null;
  }

  private async campaignsWithDueTargets(): Promise<string[]> {
    const now = this.clock.now().getTime();
    if (this.dueCampaigns && now - this.dueCampaigns.readAt < DUE_CAMPAIGNS_TTL_MS)
      return this.dueCampaigns.ids;
    // Paused campaigns are left out, so however many due targets they hold, they take no place.
    const paused = await this.campaigns.pausedIds();
    const ids = await this.targets.dueCampaigns(new Date(now), 500, paused);
    this.dueCampaigns = { ids, readAt: now };
    return ids;
  }

  private async claim(
    campaign: Campaign,
    provider: CallProvider,
    limit: number,
    result: RoundResult,
  ): Promise<ClaimedCall[]> {
    const now = this.clock.now();
    const candidates = await this.targets.peekDue(campaign.id, now, limit);
    if (candidates.length === 0) return [];
    const plans = await this.plan(campaign, candidates, now);

    const { claimed, acted, locked } = await this.uow.run(async (tx) => {
      await this.targets.lockCampaigns(tx, [campaign.id]);
      // Pause and cancel take this same lock around their state change (CampaignControl), so the state
      // read here, after the lock, is the latest: a pause or cancel that has returned is seen, and one
      // under way waits for this claim to commit (its calls started before the pause returned).
      const state = await this.campaigns.lockedState(tx, campaign.id);
      if (state !== 'active') return { claimed: [], acted: 0, locked: candidates.length };
      // Read after the lock: waiting for it can take a while, and call_started_at must be true.
      const at = this.clock.now();
      // Target ids are unique per organization only: each statement below names the campaign's.
      const due = await this.targets.lockDue(
        tx,
        campaign.organizationId,
        candidates.map((t) => t.id),
        at,
      );
      await this.screen(tx, campaign, due, plans, at);
      const deferrals: Deferral[] = [];
      const deferReasons: Record<string, string> = {};
      const calls: { target: Target; to: string }[] = [];
      const endedTargets: Target[] = [];
      const ruled: NewComplianceDecision[] = [];
      for (const target of due) {
        const plan = plans.get(target.id)!;
        if ((plan.kind === 'defer' || plan.kind === 'end') && plan.held) {
          ruled.push({
            organizationId: campaign.organizationId,
            campaignId: campaign.id,
            targetId: target.id,
            rule: plan.held.rule,
            action: plan.kind === 'defer' ? 'deferred' : 'refused',
            reason: plan.held.reason,
            timeZone: plan.held.zone,
            localTime: plan.held.localTime,
            deferredUntil: plan.kind === 'defer' ? plan.until : null,
            decidedAt: at,
          });
        }
      }
      await this.compliance.recordDecisions(tx, ruled);
      // One attribution for every target this claim ends without a call (not one per target).
      const endings = due.flatMap((target) => {
        const plan = plans.get(target.id)!;
        return plan.kind === 'end' ? [[target.id, plan.reason]] : [];
      });
      if (endings.length > 0) {
        await this.events.attribute(tx, {
          actor: WORKER,
          reasonsByTarget: Object.fromEntries(endings),
        });
      }
      for (const target of due) {
        const plan = plans.get(target.id)!;
        if (plan.kind === 'next_round') continue;
        if (plan.kind === 'defer') {
          const hold = plan.held
            ? { rule: plan.held.rule, reason: plan.held.reason }
            : (plan.check ?? null);
          deferrals.push({ targetId: target.id, until: plan.until, hold });
          deferReasons[target.id] = plan.reason;
        } else if (plan.kind === 'call') calls.push({ target, to: plan.to });
        else {
          const done = await this.targets.finishWithoutCall(
            tx,
            campaign.organizationId,
            target.id,
            plan.decision,
            at,
          );
          if (done) endedTargets.push(done);
        }
      }
      const ended = endedTargets.length;
      await this.outbox.recordAll(
        tx,
        endedTargets.map((done) => endedWithoutCall(done, campaign)),
      );
      if (deferrals.length > 0)
        await this.events.attribute(tx, { actor: WORKER, reasonsByTarget: deferReasons });
      const deferred = await this.targets.defer(tx, campaign.organizationId, deferrals, at);
      let starting = calls;
      if (starting.length > 0) {
        const slots =
          campaign.maxConcurrentCalls - (await this.targets.countInFlight(tx, campaign.id));
        starting = starting.slice(0, Math.max(0, slots));
      }
      if (starting.length > 0 && this.settings.callsPerSecond > 0) {
        const granted = await this.rate.take(
          tx,
          provider.name,
          starting.length,
          this.settings.callsPerSecond,
          at,
        );
        if (granted < starting.length) {
          result.rateLimitedUntil = new Date(Math.floor(at.getTime() / 1000) * 1000 + 1000);
          starting = starting.slice(0, granted);
        }
      }
      const from = campaign.callerId ?? DEFAULT_FROM;
      const deadlineAt = this.settings.placingDeadline(at);
      const ids = await this.callLogs.startMany(
        tx,
        starting.map(({ target, to }) => ({
          organizationId: target.organizationId,
          campaignId: target.campaignId,
          targetId: target.id,
          attempt: target.attempts + 1,
          to,
          from,
          provider: provider.name,
          startedAt: at,
          deadlineAt,
        })),
      );
      await this.compliance.recordCalls(
        tx,
        campaign.organizationId,
        starting.map(({ to }, i) => ({ phoneNumber: to, callLogId: ids[i], placedAt: at })),
      );
      if (starting.length > 0) {
        await this.events.attribute(tx, {
          actor: WORKER,
          reasonsByTarget: Object.fromEntries(
            starting.map(({ target }) => [
              target.id,
              `call placed: attempt ${target.attempts + 1} of ${campaign.maxAttempts}`,
            ]),
          ),
        });
      }
      const started = await this.targets.startCalls(
        tx,
        campaign.organizationId,
        starting.map(({ target }, i) => ({ targetId: target.id, callLogId: ids[i] })),
        at,
      );
      // Every target was locked above, so each starts; the check keeps a mismatch from going unseen.
      if (started.length !== starting.length) throw new Error('a locked target did not start');
      const claimed: ClaimedCall[] = starting.map(({ target, to }, i) => ({
        provider,
        log: {
          id: ids[i],
          organizationId: target.organizationId,
          campaignId: target.campaignId,
          targetId: target.id,
          attempt: target.attempts + 1,
          to,
          from,
          provider: provider.name,
          providerCallId: null,
          outcome: null,
          endedReason: null,
          callCategorization: null,
          agentData: {},
          postCallData: null,
          qa: null,
          transcripts: [],
          recordingUrls: [],
          outputData: null,
          subcategory: null,
          startedAt: at,
          endedAt: null,
          durationSeconds: null,
          deadlineAt,
          createdAt: at,
        },
        request: {
          callLogId: ids[i],
          targetId: target.id,
          campaignId: campaign.id,
          campaignType: campaign.type,
          attempt: target.attempts + 1,
          to,
          from,
          inputData: target.inputData,
          eventsUrl: this.settings.eventsUrl(provider.name),
        },
      }));
      const waiting = due.filter((t) => plans.get(t.id)!.kind === 'next_round').length;
      return {
        claimed,
        acted: ended + deferred.length + claimed.length + waiting,
        locked: due.length,
      };
    });
    result.acted += acted;
    if (locked < candidates.length) result.contended = true;
    return claimed;
  }

  /**
   * A cancelled campaign's targets that became `Scheduled` after the cancel (a trigger that raced it)
   * end as the cancel ended the others, with their notifications.
   */
  private async endCancelled(campaign: Campaign): Promise<number> {
    return this.uow.run(async (tx) => {
      await this.targets.lockCampaigns(tx, [campaign.id]);
      await this.events.attribute(tx, { actor: WORKER, reason: CAMPAIGN_CANCELLED });
      const ended = await this.targets.cancelOpen(
        tx,
        campaign.id,
        cancelledDecision(campaign.type),
        this.clock.now(),
      );
      await this.outbox.recordAll(
        tx,
        ended.map((done) => endedWithoutCall(done, campaign)),
      );
      return ended.length;
    });
  }

  /**
   * Dial plan, windows, the organization's calling rules and blacklists, read and decided before the
   * claim transaction opens; what needs the numbers' calls and do-not-call entries waits for `screen`.
   */
  private async plan(campaign: Campaign, targets: Target[], now: Date): Promise<Map<string, Plan>> {
    const lastLogIds = targets
      .map((t) => t.callLogIds?.[t.callLogIds.length - 1])
      .filter((id): id is number => id !== undefined);
    const previous = new Map<number, CallLog>(
      (await this.callLogs.findByIds(lastLogIds)).map((l) => [l.id, l]),
    );
    const policy = await this.compliance.policyForCalls(campaign.organizationId);
    const plans = new Map<string, Plan>();
    const toCheck: { target: Target; number: string }[] = [];
    for (const target of targets) {
      const lastId = target.callLogIds?.[target.callLogIds.length - 1];
      const dial = chooseNumber(
        target,
        lastId === undefined ? null : (previous.get(lastId) ?? null),
      );
      if (!dial) {
        const decision = undialableDecision(campaign.type, 'no_phone_number');
        plans.set(target.id, {
          kind: 'end',
          decision,
          reason: endedWords(decision.outcome),
          held: null,
        });
        continue;
      }
      const place = this.compliance.place(target.timeZone, dial.number, policy);
      const rules: CallingRulesInput = {
        now,
        callingWindow: campaign.callingWindow,
        operatingHours: dial.operatingHours,
        policy,
        recipient: {
          zones: place.zones,
          stateRules: this.compliance.stateRulesFor(place.region, policy, now),
        },
        recentCalls: [],
        doNotCallSince: null,
      };
      const plan = this.planOf(campaign, target, dial.number, rules, decideCall(rules));
      plans.set(target.id, plan);
      if (plan.kind === 'call') toCheck.push({ target, number: dial.number });
    }
    // Also a campaign naming no blacklist: an organization-level entry holds for all its campaigns.
    if (toCheck.length > 0) {
      const blacklisted = await this.blacklist.findBlacklisted(
        campaign.organizationId,
        campaign.blacklistIds,
        [...new Set(toCheck.map((c) => c.number))],
      );
      for (const { target, number } of toCheck) {
        if (blacklisted.has(number)) {
          const decision = blacklistedDecision(campaign.type);
          plans.set(target.id, {
            kind: 'end',
            decision,
            reason: endedWords(decision.outcome),
            held: null,
          });
        }
      }
    }
    await this.consultChecks(campaign, targets, plans, now);
    return plans;
  }

  /**
   * The registered pre-dial checks, in order, on the calls still to be placed: the first that defers
   * or refuses a call decides it. Before the claim transaction: a check may take its time.
   */
  private async consultChecks(
    campaign: Campaign,
    targets: Target[],
    plans: Map<string, Plan>,
    now: Date,
  ): Promise<void> {
    for (const check of this.checks.checks) {
      const calling = targets.filter((t) => plans.get(t.id)!.kind === 'call');
      if (calling.length === 0) return;
      const calls: PreDialCall[] = calling.map((t) => ({
        organizationId: campaign.organizationId,
        campaignId: campaign.id,
        targetId: t.id,
        to: (plans.get(t.id) as Extract<Plan, { kind: 'call' }>).to,
        attempt: t.attempts + 1,
        inputData: t.inputData,
      }));
      let verdicts: PreDialVerdict[];
      try {
        verdicts = await check.check(calls, now);
        if (verdicts.length !== calls.length) {
          throw new Error(`answered ${verdicts.length} verdicts for ${calls.length} calls`);
        }
      } catch (err) {
        this.logger.warn({ err, check: check.name }, 'pre-dial check failed: its calls wait');
        const until = new Date(now.getTime() + CHECK_FAILED_RETRY_MS);
        verdicts = calls.map(() => ({
          action: 'defer',
          until,
          reason: 'the check did not answer; asked again shortly',
        }));
      }
      calling.forEach((target, i) => {
        const verdict = verdicts[i];
        const reason = verdict.action === 'call' ? '' : `${check.name}: ${verdict.reason}`;
        if (verdict.action === 'defer') {
          // At least a second: a check that answers "now" must not spin the dispatcher.
          const until = new Date(Math.max(verdict.until.getTime(), now.getTime() + 1000));
          plans.set(target.id, {
            kind: 'defer',
            until,
            reason,
            held: null,
            check: { rule: check.name, reason },
          });
        } else if (verdict.action === 'refuse') {
          const decision = refusedByCheckDecision(campaign.type);
          plans.set(target.id, {
            kind: 'end',
            decision,
            reason: `${endedWords(decision.outcome)}: ${reason}`,
            held: null,
          });
        }
      });
    }
  }

  /** A decision of the calling rules as what the claim does with the target. */
  private planOf(
    campaign: Campaign,
    target: Target,
    to: string,
    rules: CallingRulesInput,
    decision: CallingDecision,
  ): Plan {
    if (decision.kind === 'call') return { kind: 'call', to, rules };
    // The campaign's own window is not a rule of the organization's policy: its words are worked out
    // when the target is read, and it is not an audited decision.
    const held: Held | null =
      decision.rule === 'calling_window'
        ? null
        : {
            rule: decision.rule,
            reason: decision.reason,
            zone: decision.zone,
            localTime: decision.localTime,
          };
    if (decision.kind === 'defer') {
      const reason =
        held?.reason ??
        outsideWindowReason(campaign.callingWindow, rules.operatingHours, rules.now) ??
        `deferred to ${decision.until.toISOString()}`;
      return { kind: 'defer', until: decision.until, reason, held };
    }
    const ending =
      decision.rule === 'do_not_call'
        ? doNotCallDecision(campaign.type)
        : undialableDecision(
            campaign.type,
            decision.rule === 'calling_window' ? 'no_calling_window' : 'calling_rules',
          );
    const words = endedWords(ending.outcome);
    return {
      kind: 'end',
      decision: ending,
      reason: held ? `${words}: ${held.reason}` : words,
      held,
    };
  }

  /**
   * Inside the claim: locks the numbers about to be dialled, reads their calls of the last 7 days
   * and their do-not-call entries, and decides those calls again with them, so that the caps hold
   * however many dispatchers claim at once (the lock is held until commit, after the calls are
   * recorded). Due targets dialling one number count each other's calls of this claim: one that a cap
   * would hold because of them waits for the next round instead (those calls may not start: the
   * campaign's slots and the rate limit trim the claim later).
   */
  private async screen(
    tx: Tx,
    campaign: Campaign,
    due: Target[],
    plans: Map<string, Plan>,
    at: Date,
  ): Promise<void> {
    const calling = due.filter((t) => plans.get(t.id)!.kind === 'call');
    if (calling.length === 0) return;
    const numberOf = (t: Target) => (plans.get(t.id) as Extract<Plan, { kind: 'call' }>).to;
    const { recentCalls, doNotCall } = await this.compliance.screen(
      tx,
      campaign.organizationId,
      [...new Set(calling.map(numberOf))],
      at,
    );
    const claimed = new Map<string, number>();
    for (const target of calling) {
      const plan = plans.get(target.id) as Extract<Plan, { kind: 'call' }>;
      const earlier = recentCalls.get(plan.to) ?? [];
      const inClaim = claimed.get(plan.to) ?? 0;
      const rules: CallingRulesInput = {
        ...plan.rules,
        now: at,
        recentCalls: inClaim > 0 ? [...earlier, ...Array<Date>(inClaim).fill(at)] : earlier,
        doNotCallSince: doNotCall.get(plan.to) ?? null,
      };
      const decision = decideCall(rules);
      const capped =
        decision.kind === 'defer' &&
        (decision.rule === 'organization_limit' || decision.rule === 'state_limit');
      if (capped && inClaim > 0) {
        plans.set(target.id, { kind: 'next_round' });
        continue;
      }
      const next = this.planOf(campaign, target, plan.to, rules, decision);
      plans.set(target.id, next);
      if (next.kind === 'call') claimed.set(plan.to, inClaim + 1);
    }
  }
}

/** Why a target ends without a call, for its timeline. */
const endedWords = (outcome: string) => `ended without a call: ${outcome}`;
