import { Tx } from '../common/persistence/unit-of-work.js';
import {
  CampaignTargetCounts,
  Deferral,
  TargetAttempt,
  StartedCall,
  TargetOutcome,
  TextContinuation,
  TargetReview,
  TargetTransitions,
  TriggerClaim,
  TriggerSelection,
  WaitingScope,
} from '../modules/target/application/ports/target-transitions.js';
import { IN_FLIGHT_STATUSES, Target } from '../modules/target/domain/target.js';
import { allows, type TargetEvent } from '../modules/target/domain/target-lifecycle.js';
import { TargetTable, targetKey } from './in-memory-target.repository.js';
import type { InMemoryTargetEventLog } from './in-memory-target-event-log.js';
import { byCreatedThenId, clone, compareIds } from './in-memory-rows.js';
import { recordingTable } from './recording-target-table.js';

interface TransitionsState {
  own: Map<string, Target>;
  events: ReturnType<InMemoryTargetEventLog['snapshot']> | undefined;
}

const due = (t: Target, now: Date) =>
  t.status === 'Scheduled' && t.scheduledTime !== null && t.scheduledTime <= now;
const byDue = (a: Target, b: Target) =>
  a.scheduledTime!.getTime() - b.scheduledTime!.getTime() || compareIds(a.id, b.id);
/** The columns an outcome sets, with or without a call. */
const outcomeOf = (d: TargetOutcome) => ({
  status: d.status,
  resolution: d.resolution,
  category: d.category,
  subcategory: d.subcategory,
  outcome: d.outcome,
});

/** The key of a row naming its target and organization. */
const keyOfRow = (r: { organizationId: string; targetId: string }): [string, string] => [
  r.organizationId,
  r.targetId,
];
/** The columns an outcome reached without a call sets. */
const endedWithoutCall = (d: TargetOutcome, now: Date): Partial<Target> => ({
  ...outcomeOf(d),
  categorization: { category: d.category, subcategory: d.subcategory, resolution: d.resolution },
  updatedAt: now,
});

/**
 * TargetTransitions over a map of targets, guarded by the lifecycle's declaration (`allows`, from
 * src/modules/target/domain/target-lifecycle.ts) as the SQL adapter is; the contract suite in
 * test/contracts/target-transitions.contract.ts plays every event on every status against both. By
 * default it keeps its own map; give it another fake's table (`() => targetRepository.table()`,
 * `() => stepData.targets`) so one fake holds target state. `notifications` counts the transactions
 * that would have woken the dispatchers. Locks are not modelled: one caller at a time.
 */
export class InMemoryTargetTransitions extends TargetTransitions {
  notifications = 0;
  private own = new Map<string, Target>();

  /**
   * With `events`, each change of its own map is recorded there as the triggers record it (over
   * another fake's table, that fake records them).
   */
  constructor(
    private readonly table: () => TargetTable = () => this.own,
    private readonly events?: InMemoryTargetEventLog,
  ) {
    super();
    if (events) this.table = () => recordingTable(table(), events);
  }

  put(...targets: Target[]): void {
    for (const t of targets) this.save(clone(t));
  }

  /** Writes a target under its key (its id is unique within its organization only); a copy back. */
  private save(target: Target): Target {
    this.table().set(targetKey(target.organizationId, target.id), target);
    return clone(target);
  }

  private find(organizationId: string, id: string): Target | undefined {
    return this.table().get(targetKey(organizationId, id));
  }

  /**
   * For each item in turn, the target it names moved by `event` as `change` says, where the event's
   * guard allows it (and `change` does not refuse it with null); the moved targets, as saved.
   */
  private moveEach<I>(
    event: TargetEvent,
    items: readonly I[],
    keyOf: (item: I) => [organizationId: string, targetId: string],
    change: (t: Target, item: I) => Partial<Target> | null,
  ): Target[] {
    return items.flatMap((item) => {
      const t = this.find(...keyOf(item));
      const changes = t && allows(event, t.status) ? change(t, item) : null;
      return t && changes ? [this.save({ ...t, ...changes })] : [];
    });
  }

  all(): Target[] {
    return [...this.table().values()].map(clone);
  }

  /** Its own rows and, when it records events, its event log: a rollback takes both back. */
  snapshot(): TransitionsState {
    return { own: clone(this.own), events: this.events?.snapshot() };
  }

  restore(state: TransitionsState): void {
    this.own = state.own;
    if (state.events) this.events?.restore(state.events);
  }

  async claimForTrigger(
    _tx: Tx,
    campaignId: string,
    selection: TriggerSelection,
    now: Date,
  ): Promise<TriggerClaim> {
    const claim: TriggerClaim = { scheduled: [], notFound: [], notPending: [] };
    const schedule = (t: Target) => {
      this.save({ ...t, status: 'Scheduled', scheduledTime: now, updatedAt: now });
      claim.scheduled.push(t.id);
    };
    if ('count' in selection) {
      const pending = [...this.table().values()].filter(
        (t) => t.campaignId === campaignId && allows('trigger', t.status),
      );
      pending.sort(selection.oldestFirst ? byCreatedThenId : () => Math.random() - 0.5);
      pending.slice(0, selection.count).forEach(schedule);
    } else {
      const inCampaign = new Map(
        [...this.table().values()].filter((t) => t.campaignId === campaignId).map((t) => [t.id, t]),
      );
      for (const id of selection.targetIds) {
        const t = inCampaign.get(id);
        if (!t) claim.notFound.push(id);
        else if (!allows('trigger', t.status) || claim.scheduled.includes(id))
          claim.notPending.push(id);
        else schedule(t);
      }
    }
    if (claim.scheduled.length > 0) this.notifications++;
    return claim;
  }

  async moveWaiting(
    _tx: Tx,
    scope: WaitingScope,
    targetIds: string[],
    friendlyId: string,
    to: 'Pending' | 'Scheduled',
    now: Date,
  ): Promise<string[]> {
    const moved = this.moveEach(
      'moveWaiting',
      [...new Set(targetIds)],
      (id) => [scope.organizationId, id],
      (t) =>
        t.campaignId !== scope.campaignId || t.currentStep !== friendlyId
          ? null
          : {
              status: to,
              currentStep: null,
              scheduledTime: to === 'Scheduled' ? now : t.scheduledTime,
              updatedAt: now,
            },
    );
    if (to === 'Scheduled' && moved.length > 0) this.notifications++;
    return moved.map((t) => t.id);
  }

  async dueCampaigns(now: Date, limit: number, excluding: readonly string[]): Promise<string[]> {
    const firstDue = new Map<string, number>();
    for (const t of this.table().values()) {
      if (!due(t, now) || excluding.includes(t.campaignId)) continue;
      const at = t.scheduledTime!.getTime();
      firstDue.set(t.campaignId, Math.min(at, firstDue.get(t.campaignId) ?? at));
    }
    return [...firstDue.entries()]
      .sort((a, b) => a[1] - b[1])
      .slice(0, limit)
      .map(([id]) => id);
  }

  async nextDueAfter(now: Date): Promise<Date | null> {
    const times = [...this.table().values()]
      .filter((t) => t.status === 'Scheduled' && t.scheduledTime !== null && t.scheduledTime > now)
      .map((t) => t.scheduledTime!.getTime());
    return times.length === 0 ? null : new Date(Math.min(...times));
  }

  async countInFlight(_tx: Tx | null, campaignId: string): Promise<number> {
    return [...this.table().values()].filter(
      (t) => t.campaignId === campaignId && IN_FLIGHT_STATUSES.includes(t.status),
    ).length;
  }

  async peekDue(campaignId: string, now: Date, limit: number): Promise<Target[]> {
    return [...this.table().values()]
      .filter((t) => t.campaignId === campaignId && due(t, now))
      .sort(byDue)
      .slice(0, Math.max(0, limit))
      .map(clone);
  }

  async lockCampaigns(): Promise<void> {}

  async lockDue(
    _tx: Tx,
    organizationId: string,
    targetIds: string[],
    now: Date,
  ): Promise<Target[]> {
    return targetIds
      .map((id) => this.find(organizationId, id))
      .filter((t): t is Target => t !== undefined && due(t, now))
      .sort(byDue)
      .map(clone);
  }

  async defer(
    _tx: Tx,
    organizationId: string,
    deferrals: Deferral[],
    now: Date,
  ): Promise<string[]> {
    return this.moveEach(
      'defer',
      deferrals,
      (d) => [organizationId, d.targetId],
      (_, d) => ({ scheduledTime: d.until, hold: d.hold, updatedAt: now }),
    ).map((t) => t.id);
  }

  async startCalls(
    _tx: Tx,
    organizationId: string,
    calls: StartedCall[],
    now: Date,
  ): Promise<Target[]> {
    return this.moveEach(
      'startCall',
      calls,
      (c) => [organizationId, c.targetId],
      (t, c) => ({
        status: 'In Progress',
        attempts: t.attempts + 1,
        retries: t.attempts,
        callLogIds: [...(t.callLogIds ?? []), c.callLogId],
        callStartedAt: now,
        lastCallDate: now,
        updatedAt: now,
        hold: null,
      }),
    );
  }

  async finishAttempts(_tx: Tx, attempts: TargetAttempt[]): Promise<Target[]> {
    const finished = this.moveEach('finishAttempt', attempts, keyOfRow, (t, r) => {
      if (t.callLogIds?.[t.callLogIds.length - 1] !== r.callLogId) return null;
      const executionSeconds = (t.executionSeconds ?? 0) + r.durationSeconds;
      return {
        ...outcomeOf(r),
        scheduledTime: r.retryAt ?? t.scheduledTime,
        outputData: { ...t.outputData, ...r.outputData },
        executionSeconds,
        categorization: clone(r.categorization),
        statistics: {
          ...t.statistics,
          attempts: t.attempts,
          execution_seconds: executionSeconds,
          last_call_outcome: r.categorization.outcome,
          last_call_log_id: r.callLogId,
        },
        callStartedAt: null,
        updatedAt: r.now,
      };
    });
    if (finished.length > 0) this.notifications++;
    return finished;
  }

  async cancelOpen(_tx: Tx, campaignId: string, d: TargetOutcome, now: Date): Promise<Target[]> {
    const ended: Target[] = [];
    for (const t of this.table().values()) {
      if (t.campaignId !== campaignId || !allows('cancel', t.status)) continue;
      ended.push(this.save({ ...t, ...endedWithoutCall(d, now), currentStep: null }));
    }
    return ended;
  }

  async review(_tx: Tx, r: TargetReview): Promise<Target | null> {
    const requeue = r.action === 'requeue';
    const [reviewed] = this.moveEach('review', [r], keyOfRow, (t) => ({
      status: requeue ? 'Scheduled' : 'Finished',
      scheduledTime: requeue ? r.now : t.scheduledTime,
      statistics: { ...t.statistics, review: { action: r.action, at: r.now.toISOString() } },
      updatedAt: r.now,
    }));
    if (reviewed && requeue) this.notifications++;
    return reviewed ?? null;
  }

  async notifyDue(): Promise<void> {
    this.notifications++;
  }

  async countCampaign(campaignId: string, now: Date): Promise<CampaignTargetCounts> {
    const counts: CampaignTargetCounts = {
      total: 0,
      byStatus: {},
      byCategory: {},
      byResolution: {},
      inFlight: 0,
      dueNow: 0,
      dueLater: 0,
      nextScheduledAt: null,
      heldByRule: {},
      heldUntil: [],
      lastScheduledAt: null,
    };
    const heldUntil = new Map<string, { rule: string; until: Date; targets: number }>();
    const add = (m: Record<string, number>, k: string | null) => {
      if (k !== null) m[k] = (m[k] ?? 0) + 1;
    };
    for (const t of this.table().values()) {
      if (t.campaignId !== campaignId) continue;
      counts.total++;
      add(counts.byStatus, t.status);
      add(counts.byCategory, t.category);
      add(counts.byResolution, t.resolution);
      if (IN_FLIGHT_STATUSES.includes(t.status)) counts.inFlight++;
      if (t.status === 'Scheduled' && t.scheduledTime) {
        if (!counts.lastScheduledAt || t.scheduledTime > counts.lastScheduledAt)
          counts.lastScheduledAt = t.scheduledTime;
        if (t.scheduledTime <= now) counts.dueNow++;
        else {
          counts.dueLater++;
          if (t.hold) {
            add(counts.heldByRule, t.hold.rule);
            // Rounded up to the minute, as the adapter groups them.
            const until = new Date(Math.ceil(t.scheduledTime.getTime() / 60_000) * 60_000);
            const key = `${until.toISOString()} ${t.hold.rule}`;
            const group = heldUntil.get(key) ?? { rule: t.hold.rule, until, targets: 0 };
            group.targets++;
            heldUntil.set(key, group);
          }
          if (!counts.nextScheduledAt || t.scheduledTime < counts.nextScheduledAt)
            counts.nextScheduledAt = t.scheduledTime;
        }
      }
    }
    counts.heldUntil = [...heldUntil.entries()]
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
      .map(([, group]) => group);
    return counts;
  }

  async continueAfterTexts(_tx: Tx, continuations: TextContinuation[]): Promise<Target[]> {
    return this.moveEach('continueAfterText', continuations, keyOfRow, (t, c) => ({
      ...outcomeOf(c),
      scheduledTime: c.retryAt ?? t.scheduledTime,
      updatedAt: c.now,
    }));
  }

  async finishWithoutCall(
    _tx: Tx,
    organizationId: string,
    targetId: string,
    d: TargetOutcome,
    now: Date,
  ): Promise<Target | null> {
    const [finished] = this.moveEach(
      'finishWithoutCall',
      [targetId],
      (id) => [organizationId, id],
      () => endedWithoutCall(d, now),
    );
    return finished ?? null;
  }

  async findById(_tx: Tx | null, organizationId: string, targetId: string): Promise<Target | null> {
    const t = this.find(organizationId, targetId);
    return t ? clone(t) : null;
  }
}
