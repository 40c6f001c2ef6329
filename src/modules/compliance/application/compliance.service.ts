import { Injectable, Logger } from '@nestjs/common';
import { ExpiringCache } from '../../../common/caching/expiring-cache.js';
import { Clock } from '../../../common/clock/clock.js';
import { Tx } from '../../../common/persistence/unit-of-work.js';
import { locateNumber } from '../../../common/phone/recipient-zones.js';
import {
  CAP_WINDOWS_MS,
  DEFAULT_POLICY,
  policyWarnings,
  type CompliancePolicy,
} from '../domain/compliance-policy.js';
import type {
  ComplianceDecision,
  DecisionQuery,
  NewComplianceDecision,
} from '../domain/compliance-decision.js';
import { STATE_RULE_PACK, stateRulesFor, type StateRule } from '../domain/state-rules.js';
import { CallLedger, type PlacedCall } from './ports/call-ledger.js';
import { CompliancePolicyRepository } from './ports/compliance-policy.repository.js';
import { DecisionLog } from './ports/decision-log.js';
import { RecipientLocks } from './ports/recipient-locks.js';
import { DoNotCallService } from './do-not-call.service.js';
import type { ChangeActor } from '../domain/change-actor.js';

/** How long a worker reuses an organization's policy; a change made through this process is at once. */
const POLICY_TTL_MS = 2000;
/** A number's ledger rows are forgotten a day after the longest cap window stops counting them. */
const LEDGER_MEMORY_MS = CAP_WINDOWS_MS.per7d + CAP_WINDOWS_MS.per24h;

/** The policy of organizations that have not set one (DEFAULT_CALLING_POLICY). */
export class DefaultCallingPolicy {
  constructor(readonly policy: CompliancePolicy = DEFAULT_POLICY) {}
}

/** Where a recipient may be, as the single read and the dispatcher see it. */
export interface RecipientPlace {
  zones: string[];
  zoneSource: 'target' | 'phone_number' | 'organization_default';
  /** The geocoder's words for a NANP number's area (`Florida`, `Miami, FL`). */
  region: string | null;
}

/** What the claim's transaction reads for its numbers, under their locks. */
export interface NumberScreen {
  recentCalls: Map<string, Date[]>;
  doNotCall: Map<string, Date>;
}

/**
 * The organization's calling rules: its policy (defaults until set), the recipient's zones and state
 * rules, the numbers' recent calls and do-not-call entries for a claim, and the record of decisions.
 */
@Injectable()
export class ComplianceService {
  private readonly logger = new Logger('Compliance');
  private readonly policies = new ExpiringCache<string, CompliancePolicy>(10_000);

  constructor(
    private readonly policyStore: CompliancePolicyRepository,
    private readonly ledger: CallLedger,
    private readonly decisionLog: DecisionLog,
    private readonly locks: RecipientLocks,
    private readonly doNotCall: DoNotCallService,
    private readonly clock: Clock,
    private readonly defaults: DefaultCallingPolicy,
  ) {}

  async policy(organizationId: string): Promise<CompliancePolicy> {
    return (await this.policyStore.find(organizationId)) ?? this.defaults.policy;
  }

  /** Whether an organization has set its own policy (else the operator's default applies). */
  async hasOwnPolicy(organizationId: string): Promise<boolean> {
    return (await this.policyStore.find(organizationId)) !== null;
  }

  /** The policy as the dispatcher reads it: kept for two seconds per organization. */
  async policyForCalls(organizationId: string): Promise<CompliancePolicy> {
    const policy = await this.policies.get(
      organizationId,
      this.clock.now().getTime(),
      POLICY_TTL_MS,
      () => this.policy(organizationId),
    );
    return policy ?? this.defaults.policy;
  }

  async setPolicy(
    organizationId: string,
    policy: CompliancePolicy,
    updatedBy: ChangeActor | null,
  ): Promise<CompliancePolicy> {
    await this.policyStore.save(organizationId, policy, this.clock.now(), updatedBy);
    this.policies.forget(organizationId);
    for (const warning of policyWarnings(policy)) {
      this.logger.warn(
        { organizationId, updatedBy: updatedBy && { type: updatedBy.type, id: updatedBy.id } },
        `calling policy weakened: ${warning}`,
      );
    }
    return policy;
  }

  /** The state rules of the pack in force now (the console lists them with their citations). */
  stateRulesInForce(): { version: string; scope: string; rules: StateRule[] } {
    const today = this.clock.now().toISOString().slice(0, 10);
    return {
      version: STATE_RULE_PACK.version,
      scope: STATE_RULE_PACK.scope,
      rules: STATE_RULE_PACK.rules.filter((r) => r.effective <= today),
    };
  }

  /** Where the owner of `phoneNumber` may be: the target's own zone, the number's, or the default. */
  place(
    explicitZone: string | null,
    phoneNumber: string | null,
    policy: CompliancePolicy,
  ): RecipientPlace {
    const located = phoneNumber ? locateNumber(phoneNumber) : null;
    const region = located?.region ?? null;
    if (explicitZone) return { zones: [explicitZone], zoneSource: 'target', region };
    if (located) return { zones: located.zones, zoneSource: 'phone_number', region };
    return { zones: [policy.defaultTimeZone], zoneSource: 'organization_default', region };
  }

  /** The state rules that apply to a number in `region` under `policy`, at `at`. */
  stateRulesFor(region: string | null, policy: CompliancePolicy, at: Date): StateRule[] {
    return policy.stateRules ? stateRulesFor(region, at) : [];
  }

  /**
   * Locks the numbers for the rest of `tx`, then reads their calls of the last 7 days and their
   * do-not-call entries: what the caps count and the list refuses, race-free between dispatchers.
   */
  async screen(
    tx: Tx,
    organizationId: string,
    phoneNumbers: string[],
    now: Date,
  ): Promise<NumberScreen> {
    if (phoneNumbers.length === 0) return { recentCalls: new Map(), doNotCall: new Map() };
    await this.locks.lock(tx, organizationId, phoneNumbers);
    const since = new Date(now.getTime() - CAP_WINDOWS_MS.per7d);
    const recentCalls = await this.ledger.recentCalls(tx, organizationId, phoneNumbers, since);
    const doNotCall = await this.doNotCall.listedAmong(tx, organizationId, phoneNumbers);
    return { recentCalls, doNotCall };
  }

  /** The claim's started calls, counted from now on by every campaign of the organization. */
  async recordCalls(tx: Tx, organizationId: string, calls: PlacedCall[]): Promise<void> {
    if (calls.length === 0) return;
    const forgetBefore = new Date(calls[0].placedAt.getTime() - LEDGER_MEMORY_MS);
    await this.ledger.record(tx, organizationId, calls, forgetBefore);
  }

  async recordDecisions(tx: Tx, decisions: NewComplianceDecision[]): Promise<void> {
    if (decisions.length > 0) await this.decisionLog.record(tx, decisions);
  }

  decisions(
    query: DecisionQuery,
    skip: number,
    limit: number,
  ): Promise<{ decisions: ComplianceDecision[]; total: number }> {
    return this.decisionLog.page(query, skip, limit);
  }

  /** Every decision the query matches, a batch at a time (an export of any length in bounded memory). */
  async *allDecisions(query: DecisionQuery, batch = 1000): AsyncGenerator<ComplianceDecision[]> {
    let last: ComplianceDecision | null = null;
    for (;;) {
      const next = await this.decisionLog.after(query, last, batch);
      if (next.length === 0) return;
      yield next;
      if (next.length < batch) return;
      last = next[next.length - 1];
    }
  }
}
