/** In-memory fakes of the compliance module's ports; test/contracts proves them equal to the SQL. */
import { Tx, UnitOfWork } from '../common/persistence/unit-of-work.js';
import {
  CallLedger,
  type PlacedCall,
} from '../modules/compliance/application/ports/call-ledger.js';
import { CompliancePolicyRepository } from '../modules/compliance/application/ports/compliance-policy.repository.js';
import { DecisionLog } from '../modules/compliance/application/ports/decision-log.js';
import type { CompliancePolicy } from '../modules/compliance/domain/compliance-policy.js';
import type {
  ComplianceDecision,
  DecisionQuery,
  NewComplianceDecision,
} from '../modules/compliance/domain/compliance-decision.js';
import { queriedCampaigns } from '../modules/compliance/domain/compliance-decision.js';
import { InMemoryUnitOfWork, type Snapshottable } from './in-memory-unit-of-work.js';
import { Clock } from '../common/clock/clock.js';
import {
  ComplianceService,
  DefaultCallingPolicy,
} from '../modules/compliance/application/compliance.service.js';
import type { DoNotCallService } from '../modules/compliance/application/do-not-call.service.js';
import { inMemoryDoNotCall } from './in-memory-do-not-call.repository.js';
import { InMemoryRecipientLocks } from './in-memory-recipient-locks.js';

export class InMemoryCompliancePolicyRepository extends CompliancePolicyRepository {
  private readonly policies = new Map<string, CompliancePolicy>();

  async find(organizationId: string): Promise<CompliancePolicy | null> {
    const policy = this.policies.get(organizationId);
    return policy ? structuredClone(policy) : null;
  }

  async save(organizationId: string, policy: CompliancePolicy): Promise<void> {
    this.policies.set(organizationId, structuredClone(policy));
  }
}

interface LedgerEntry extends PlacedCall {
  organizationId: string;
}

export class InMemoryCallLedger extends CallLedger implements Snapshottable<LedgerEntry[]> {
  private entries: LedgerEntry[] = [];

  async recentCalls(_tx: Tx, organizationId: string, phoneNumbers: string[], since: Date) {
    const wanted = new Set(phoneNumbers);
    const found = new Map<string, Date[]>();
    for (const e of this.entries) {
      if (e.organizationId !== organizationId || !wanted.has(e.phoneNumber)) continue;
      if (e.placedAt < since) continue;
      found.set(e.phoneNumber, [...(found.get(e.phoneNumber) ?? []), e.placedAt]);
    }
    for (const calls of found.values()) calls.sort((a, b) => a.getTime() - b.getTime());
    return found;
  }

  async record(_tx: Tx, organizationId: string, calls: PlacedCall[], forgetBefore: Date) {
    const numbers = new Set(calls.map((c) => c.phoneNumber));
    this.entries = this.entries.filter(
      (e) =>
        !(
          e.organizationId === organizationId &&
          numbers.has(e.phoneNumber) &&
          e.placedAt < forgetBefore
        ),
    );
    this.entries.push(...calls.map((c) => ({ ...c, organizationId })));
  }

  /** Rows kept, for the contract suite's check that old ones are forgotten. */
  size(): number {
    return this.entries.length;
  }

  snapshot() {
    return [...this.entries];
  }

  restore(state: LedgerEntry[]) {
    this.entries = [...state];
  }
}

const byTimeThenId = (a: ComplianceDecision, b: ComplianceDecision) =>
  a.decidedAt.getTime() - b.decidedAt.getTime() || a.id - b.id;

export class InMemoryDecisionLog
  extends DecisionLog
  implements Snapshottable<ComplianceDecision[]>
{
  private decisions: ComplianceDecision[] = [];
  private nextId = 1;

  async record(_tx: Tx, decisions: NewComplianceDecision[]) {
    for (const d of decisions) this.decisions.push({ ...d, id: this.nextId++ });
  }

  private matching(q: DecisionQuery): ComplianceDecision[] {
    const campaigns = queriedCampaigns(q);
    return this.decisions
      .filter(
        (d) =>
          d.organizationId === q.organizationId &&
          (campaigns === null || campaigns.includes(d.campaignId)) &&
          (q.from === null || d.decidedAt >= q.from) &&
          (q.to === null || d.decidedAt < q.to),
      )
      .sort(byTimeThenId);
  }

  async page(query: DecisionQuery, skip: number, limit: number) {
    const all = this.matching(query);
    return { decisions: all.slice(skip, skip + limit), total: all.length };
  }

  async after(query: DecisionQuery, after: ComplianceDecision | null, limit: number) {
    const all = this.matching(query);
    const start = after === null ? 0 : all.findIndex((d) => byTimeThenId(d, after) > 0);
    return start < 0 ? [] : all.slice(start, start + limit);
  }

  /** Every decision recorded, for the retention fake that reads a person's. */
  table(): readonly ComplianceDecision[] {
    return this.decisions;
  }

  snapshot() {
    return [...this.decisions];
  }

  restore(state: ComplianceDecision[]) {
    this.decisions = [...state];
  }
}

/** The compliance module's service on its fakes, with the fakes to look into. */
export function inMemoryCompliance(
  clock: Clock,
  options: {
    defaults?: DefaultCallingPolicy;
    doNotCall?: DoNotCallService;
    /** The unit of work whose transactions the claims run in: the number locks last as long. */
    unitOfWork?: UnitOfWork;
  } = {},
) {
  const policies = new InMemoryCompliancePolicyRepository();
  const ledger = new InMemoryCallLedger();
  const decisions = new InMemoryDecisionLog();
  // The list the completion writes, when the test has one; else a list of its own.
  const doNotCall = options.doNotCall ?? inMemoryDoNotCall(clock).service;
  const defaults = options.defaults ?? new DefaultCallingPolicy();
  const service = new ComplianceService(
    policies,
    ledger,
    decisions,
    new InMemoryRecipientLocks(options.unitOfWork ?? new InMemoryUnitOfWork()),
    doNotCall,
    clock,
    defaults,
  );
  return { service, policies, ledger, decisions, doNotCall };
}
