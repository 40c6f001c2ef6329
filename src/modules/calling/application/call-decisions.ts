import { Injectable, Logger } from '@nestjs/common';
import { Tx } from '../../../common/persistence/unit-of-work.js';
import { BlacklistService } from '../../blacklist/application/blacklist.service.js';
import { CallLogService } from '../../call-log/application/call-log.service.js';
import type { CallLog } from '../../call-log/domain/call-log.js';
import type { Campaign } from '../../campaign/domain/campaign.js';
import { ComplianceService } from '../../compliance/application/compliance.service.js';
import type { NewComplianceDecision } from '../../compliance/domain/compliance-decision.js';
import { outsideWindowReason } from '../../target/domain/waiting-reason.js';
import type { Target, TargetHold } from '../../target/domain/target.js';
import {
  decideCall,
  type CallingDecision,
  type CallingRulesInput,
  type Held,
} from '../../telephony/domain/calling-rules.js';
import { chooseNumber } from '../../telephony/domain/dial-plan.js';
import {
  blacklistedDecision,
  doNotCallDecision,
  refusedByCheckDecision,
  TargetDecision,
  undialableDecision,
} from '../domain/call-outcome.js';
import { PreDialCall, PreDialChecks, PreDialVerdict } from './ports/pre-dial-check.js';

/**
 * What a due target gets. Decided in plain TypeScript before the claim transaction from what does not
 * change under it (windows, zones, policy, blacklists); a `call` is decided again inside it with the
 * number's recent calls and do-not-call entry, read under the number's lock. `held` names the rule of
 * the organization's policy that deferred or refused it (audited); null for the campaign's own window
 * or an ending without a rule (no number, blacklisted).
 */
export type Plan =
  /** `check`: the team's pre-dial check that holds it (not a rule of the policy: not audited). */
  | { kind: 'defer'; until: Date; reason: string; held: Held | null; check?: TargetHold }
  | { kind: 'end'; decision: TargetDecision; reason: string; held: Held | null }
  | { kind: 'call'; to: string; rules: CallingRulesInput }
  /** A cap would hold it only because of a call to its number this claim starts: next round. */
  | { kind: 'next_round' };

/** How long a call waits when a pre-dial check fails to answer (it is asked again then). */
const CHECK_FAILED_RETRY_MS = 60_000;

/**
 * Deciding, for the dispatcher's claim: what each due target gets (a call, a deferral, an ending),
 * from its dial plan, the campaign's calling window, the organization's calling rules, the blacklists
 * and the team's pre-dial checks. `plan` runs before the claim transaction (a check may take its
 * time); `screen` decides the calls again inside it with the numbers' recent calls, and `audit`
 * records the rules' decisions there.
 */
@Injectable()
export class CallDecisions {
  private readonly logger = new Logger('Dispatcher');

  constructor(
    private readonly callLogs: CallLogService,
    private readonly compliance: ComplianceService,
    private readonly blacklist: BlacklistService,
    private readonly checks: PreDialChecks,
  ) {}

  /**
   * Dial plan, windows, the organization's calling rules and blacklists, read and decided before the
   * claim transaction opens; what needs the numbers' calls and do-not-call entries waits for `screen`.
   */
  async plan(campaign: Campaign, targets: Target[], now: Date): Promise<Map<string, Plan>> {
    const lastLogId = (t: Target) => t.callLogIds?.at(-1);
    const lastLogIds = targets.map(lastLogId).filter((id): id is number => id !== undefined);
    const previous = new Map<number, CallLog>(
      (await this.callLogs.findByIds(lastLogIds)).map((l) => [l.id, l]),
    );
    const policy = await this.compliance.policyForCalls(campaign.organizationId);
    const plans = new Map<string, Plan>();
    const toCheck: { target: Target; number: string }[] = [];
    for (const target of targets) {
      const lastId = lastLogId(target);
      const dial = chooseNumber(
        target,
        lastId === undefined ? null : (previous.get(lastId) ?? null),
      );
      if (!dial) {
        plans.set(target.id, endPlan(undialableDecision(campaign.type, 'no_phone_number')));
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
        if (blacklisted.has(number))
          plans.set(target.id, endPlan(blacklistedDecision(campaign.type)));
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
          plans.set(target.id, endPlan(refusedByCheckDecision(campaign.type), reason));
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
    return endPlan(ending, held?.reason, held);
  }

  /**
   * Inside the claim: locks the numbers about to be dialled, reads their calls of the last 7 days
   * and their do-not-call entries, and decides those calls again with them, so that the caps hold
   * however many dispatchers claim at once (the lock is held until commit, after the calls are
   * recorded). Due targets dialling one number count each other's calls of this claim: one that a cap
   * would hold because of them waits for the next round instead (those calls may not start: the
   * campaign's slots and the rate limit trim the claim later).
   */
  async screen(
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
      const next: Plan =
        capped && inClaim > 0
          ? { kind: 'next_round' }
          : this.planOf(campaign, target, plan.to, rules, decision);
      plans.set(target.id, next);
      if (next.kind === 'call') claimed.set(plan.to, inClaim + 1);
    }
  }

  /** The decisions of the organization's calling rules (not the campaign's window), for the audit. */
  async audit(
    tx: Tx,
    campaign: Campaign,
    due: Target[],
    plans: Map<string, Plan>,
    at: Date,
  ): Promise<void> {
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
  }
}

/** The plan that ends a target with `decision`; its timeline reason says so, then `detail`. */
function endPlan(decision: TargetDecision, detail?: string, held: Held | null = null): Plan {
  const words = `ended without a call: ${decision.outcome}`;
  return {
    kind: 'end',
    decision,
    reason: detail === undefined ? words : `${words}: ${detail}`,
    held,
  };
}
