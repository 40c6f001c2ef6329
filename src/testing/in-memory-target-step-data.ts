import { randomUUID } from 'crypto';
import { Tx } from '../common/persistence/unit-of-work.js';
import {
  AppliedUpdate,
  ReceivedStep,
  StepDataUpdate,
  StepEventRecord,
  TargetStepData,
  StepScope,
  TargetRef,
} from '../modules/target/application/ports/target-step-data.js';
import { appendEhrEventId, isWaitingAt, mergeInOrder, receiveData } from './step-rules.js';
import type { Target } from '../modules/target/domain/target.js';
import type { InMemoryTargetEventLog } from './in-memory-target-event-log.js';
import { targetKey, type TargetTable } from './in-memory-target.repository.js';
import { clone } from './in-memory-rows.js';
import { recordingTable } from './recording-target-table.js';

/**
 * The TargetStepData port over plain maps, with the same matching rules as the SQL adapter (the
 * contract suite in test/contracts/target-step-data.contract.ts holds both to them). Seed targets with
 * `put`; wrap it in `InMemoryStepUnitOfWork` to get rollback on a failed unit of work.
 */
export class InMemoryTargetStepData extends TargetStepData {
  /** Keyed by `targetKey` (a target id is unique within its organization only). */
  targets = new Map<string, Target>();

  /**
   * With `events`, its changes of targets (input data merges) are recorded there, as the triggers do.
   * With `shared`, it works on another fake's target rows (`() => targetRepository.table()`), which
   * records the changes and is rolled back with its owner.
   */
  constructor(
    private readonly timeline?: InMemoryTargetEventLog,
    private readonly shared?: () => TargetTable,
  ) {
    super();
  }

  private rows(): TargetTable {
    return this.shared ? this.shared() : this.targets;
  }

  /** Sets a target row, reporting the change to the event log as the database's triggers would. */
  private write(target: Target): void {
    const own = this.timeline ? recordingTable(this.targets, this.timeline) : this.targets;
    (this.shared?.() ?? own).set(targetKey(target.organizationId, target.id), target);
  }

  /** Test helper: the target of that id (of `organizationId` when two organizations have one). */
  find(id: string, organizationId?: string): Target | undefined {
    return [...this.rows().values()].find(
      (t) => t.id === id && (organizationId === undefined || t.organizationId === organizationId),
    );
  }
  events: StepEventRecord[] = [];

  put(...targets: Target[]): void {
    for (const t of targets) this.rows().set(targetKey(t.organizationId, t.id), clone(t));
  }

  snapshot(): { targets: Map<string, Target>; events: StepEventRecord[] } {
    return { targets: clone(this.targets), events: clone(this.events) };
  }

  restore(state: { targets: Map<string, Target>; events: StepEventRecord[] }): void {
    this.targets = state.targets;
    this.events = state.events;
  }

  async mergeStepData(
    _tx: Tx,
    scope: StepScope,
    received: ReceivedStep,
    updates: StepDataUpdate[],
  ): Promise<AppliedUpdate[]> {
    const applied: (AppliedUpdate & { data: Record<string, unknown> })[] = [];
    for (const u of [...updates].sort((a, b) => a.index - b.index)) {
      const target = this.match(scope, u);
      if (target) {
        const waiting = isWaitingAt(target, received.friendlyId);
        applied.push({ index: u.index, targetId: target.id, waiting, data: u.data });
      }
    }
    for (const [id, ofTarget] of Map.groupBy(applied, (a) => a.targetId)) {
      this.write(
        receiveData(
          this.rows().get(targetKey(scope.organizationId, id))!,
          mergeInOrder(ofTarget.map((a) => a.data)),
          received.receivedAt,
        ),
      );
    }
    for (const a of applied) this.events.push(this.event(scope, received, a.targetId, a.data));
    return applied.map(({ index, targetId, waiting }) => ({ index, targetId, waiting }));
  }

  async recordEhrEvent(
    _tx: Tx,
    scope: StepScope,
    received: ReceivedStep,
    ref: TargetRef,
    data: Record<string, unknown>,
  ): Promise<{ eventId: string; targetId: string } | null> {
    const target = this.match(scope, ref);
    if (!target) return null;
    const event = this.event(scope, received, target.id, data);
    this.events.push(event);
    const merged = receiveData(target, data, received.receivedAt);
    this.write({
      ...merged,
      preCallEhrIds: appendEhrEventId(target.preCallEhrIds, received.eventType, event.id),
    });
    return { eventId: event.id, targetId: target.id };
  }

  async history(organizationId: string, targetId: string): Promise<StepEventRecord[]> {
    return this.events.filter(
      (e) => e.organizationId === organizationId && e.targetId === targetId,
    );
  }

  private match(scope: StepScope, ref: TargetRef): Target | null {
    if (ref.targetId == null && ref.externalId == null) return null;
    for (const t of this.rows().values()) {
      if (t.organizationId !== scope.organizationId || t.campaignId !== scope.campaignId) continue;
      if (ref.targetId != null && t.id !== ref.targetId) continue;
      if (ref.externalId != null && t.externalId !== ref.externalId) continue;
      return t;
    }
    return null;
  }

  private event(
    scope: StepScope,
    received: ReceivedStep,
    targetId: string,
    data: Record<string, unknown>,
  ): StepEventRecord {
    return { id: randomUUID(), ...scope, targetId, ...received, data: clone(data) };
  }
}
