import { Tx } from '../common/persistence/unit-of-work';
import {
  AttemptResult,
  DispatchRepository,
  StartCallResult,
  TriggerClaim,
  TriggerSelection,
} from '../modules/calling/application/ports/dispatch.repository';
import { TargetDecision } from '../modules/calling/domain/call-outcome';
import { Target } from '../modules/target/domain/target';

const IN_FLIGHT = ['In Progress', 'Post-processing'];
const DUE_TOLERANCE_MS = 2_000;

/** The dispatch port over a map of targets, with the same conditional transitions as the SQL adapter. */
export class InMemoryDispatchRepository extends DispatchRepository {
  readonly targets = new Map<string, Target>();
  /** target id → campaign and queue time, in insertion order. */
  readonly waitlist = new Map<string, { campaignId: string; queuedAt: Date }>();

  put(...targets: Target[]): void {
    for (const t of targets) this.targets.set(t.id, structuredClone(t));
  }

  get(id: string): Target {
    const t = this.targets.get(id);
    if (!t) throw new Error(`no target ${id}`);
    return structuredClone(t);
  }

  async claimForTrigger(
    _tx: Tx,
    campaignId: string,
    selection: TriggerSelection,
    now: Date,
  ): Promise<TriggerClaim> {
    const claim = (t: Target) => {
      t.status = 'Scheduled';
      t.scheduledTime = new Date(now);
      t.updatedAt = new Date(now);
    };
    if ('count' in selection) {
      const pending = [...this.targets.values()].filter(
        (t) => t.campaignId === campaignId && t.status === 'Pending',
      );
      if (selection.oldestFirst) {
        pending.sort(
          (a, b) => a.createdAt.getTime() - b.createdAt.getTime() || (a.id < b.id ? -1 : 1),
        );
      } else {
        pending.sort(() => Math.random() - 0.5);
      }
      const picked = pending.slice(0, selection.count);
      picked.forEach(claim);
      return { scheduled: picked.map((t) => t.id), notFound: [], notPending: [] };
    }
    const result: TriggerClaim = { scheduled: [], notFound: [], notPending: [] };
    for (const id of selection.targetIds) {
      const t = this.targets.get(id);
      if (!t || t.campaignId !== campaignId) result.notFound.push(id);
      else if (t.status !== 'Pending') result.notPending.push(id);
      else {
        claim(t);
        result.scheduled.push(id);
      }
    }
    return result;
  }

  async findTarget(targetId: string): Promise<Target | null> {
    const t = this.targets.get(targetId);
    return t ? structuredClone(t) : null;
  }

  async defer(_tx: Tx, targetId: string, until: Date): Promise<boolean> {
    const t = this.targets.get(targetId);
    if (!t || t.status !== 'Scheduled') return false;
    t.scheduledTime = new Date(until);
    return true;
  }

  async lockCampaignSlots(): Promise<void> {
    // One process, no interleaving inside a call: nothing to lock.
  }

  async startCall(
    _tx: Tx,
    target: { id: string; campaignId: string },
    maxConcurrentCalls: number,
    now: Date,
  ): Promise<StartCallResult> {
    const t = this.targets.get(target.id);
    const due = (x: Target) =>
      x.status === 'Scheduled' &&
      (x.scheduledTime?.getTime() ?? 0) <= now.getTime() + DUE_TOLERANCE_MS;
    if (!t || !due(t)) return { kind: 'gone' };
    const inFlight = [...this.targets.values()].filter(
      (x) => x.campaignId === target.campaignId && IN_FLIGHT.includes(x.status),
    ).length;
    if (inFlight >= maxConcurrentCalls) return { kind: 'busy' };
    this.waitlist.delete(t.id);
    t.retries = t.attempts;
    t.attempts += 1;
    t.status = 'In Progress';
    t.callStartedAt = new Date(now);
    t.lastCallDate = new Date(now);
    t.updatedAt = new Date(now);
    return { kind: 'started', target: structuredClone(t) };
  }

  async waitForSlot(
    tx: Tx,
    target: { id: string; campaignId: string },
    now: Date,
    until: Date,
  ): Promise<boolean> {
    if (!(await this.defer(tx, target.id, until))) return false;
    if (!this.waitlist.has(target.id)) {
      this.waitlist.set(target.id, { campaignId: target.campaignId, queuedAt: new Date(now) });
    }
    return true;
  }

  async wakeNextWaiting(
    _tx: Tx,
    campaignId: string,
    now: Date,
  ): Promise<{ id: string; campaignId: string }[]> {
    const next = [...this.waitlist.entries()]
      .filter(
        ([id, w]) => w.campaignId === campaignId && this.targets.get(id)?.status === 'Scheduled',
      )
      .sort(([a, x], [b, y]) => x.queuedAt.getTime() - y.queuedAt.getTime() || (a < b ? -1 : 1))[0];
    if (!next) return [];
    this.waitlist.delete(next[0]);
    this.targets.get(next[0])!.scheduledTime = new Date(now);
    return [{ id: next[0], campaignId }];
  }

  async pruneWaitlist(): Promise<number> {
    let pruned = 0;
    for (const id of [...this.waitlist.keys()]) {
      if (this.targets.get(id)?.status !== 'Scheduled') {
        this.waitlist.delete(id);
        pruned++;
      }
    }
    return pruned;
  }

  async attachCallLog(_tx: Tx, targetId: string, callLogId: number): Promise<void> {
    const t = this.targets.get(targetId);
    if (t) t.callLogIds = [...(t.callLogIds ?? []), callLogId];
  }

  private isCurrentCall(t: Target | undefined, callLogId: number): t is Target {
    return !!t && (t.callLogIds ?? []).at(-1) === callLogId;
  }

  async markPostProcessing(
    _tx: Tx,
    targetId: string,
    callLogId: number,
    now: Date,
  ): Promise<boolean> {
    const t = this.targets.get(targetId);
    if (!this.isCurrentCall(t, callLogId) || t.status !== 'In Progress') return false;
    t.status = 'Post-processing';
    t.updatedAt = new Date(now);
    return true;
  }

  async finishAttempt(_tx: Tx, targetId: string, r: AttemptResult): Promise<Target | null> {
    const t = this.targets.get(targetId);
    if (!this.isCurrentCall(t, r.callLogId) || !IN_FLIGHT.includes(t.status)) return null;
    const execution = (t.executionSeconds ?? 0) + r.durationSeconds;
    Object.assign(t, {
      status: r.status,
      resolution: r.resolution,
      category: r.category,
      subcategory: r.subcategory,
      outcome: r.outcome,
      scheduledTime: r.retryAt ?? t.scheduledTime,
      outputData: { ...t.outputData, ...structuredClone(r.outputData) },
      executionSeconds: execution,
      categorization: structuredClone(r.categorization),
      statistics: {
        attempts: t.attempts,
        execution_seconds: execution,
        last_call_outcome: r.categorization.outcome,
        last_call_log_id: r.callLogId,
      },
      callStartedAt: null,
      updatedAt: new Date(r.now),
    });
    return structuredClone(t);
  }

  async finishWithoutCall(
    _tx: Tx,
    targetId: string,
    d: TargetDecision,
    now: Date,
  ): Promise<Target | null> {
    const t = this.targets.get(targetId);
    if (!t || t.status !== 'Scheduled') return null;
    Object.assign(t, {
      status: d.status,
      resolution: d.resolution,
      category: d.category,
      subcategory: d.subcategory,
      outcome: d.outcome,
      categorization: {
        category: d.category,
        subcategory: d.subcategory,
        resolution: d.resolution,
      },
      updatedAt: new Date(now),
    });
    return structuredClone(t);
  }

  async rescueOverdue(_tx: Tx, overdueBefore: Date, now: Date, limit: number) {
    const overdue = [...this.targets.values()]
      .filter(
        (t) =>
          t.status === 'Scheduled' && t.scheduledTime !== null && t.scheduledTime < overdueBefore,
      )
      .sort((a, b) => a.scheduledTime!.getTime() - b.scheduledTime!.getTime())
      .slice(0, limit);
    for (const t of overdue) t.scheduledTime = new Date(now);
    return overdue.map((t) => ({ id: t.id, campaignId: t.campaignId }));
  }
}
