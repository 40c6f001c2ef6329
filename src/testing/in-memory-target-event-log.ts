import { Tx } from '../common/persistence/unit-of-work.js';
import {
  EventCause,
  TargetEvent,
  TargetEventLog,
  TargetTimelineEvent,
  TimelineEntry,
  TimelinePosition,
} from '../modules/target/application/ports/target-event-log.js';
import { Snapshottable } from './in-memory-unit-of-work.js';
import { clone, isOlder, newestFirst } from './in-memory-rows.js';
import { IN_FLIGHT_STATUSES, Target } from '../modules/target/domain/target.js';
import { CampaignEventListeners } from '../modules/target/application/ports/campaign-event-listener.js';

interface EventLogState {
  events: StoredEvent[];
  cause: EventCause;
}

interface StoredEvent {
  event: TargetEvent;
  organizationId: string;
  campaignId: string;
  seq: number;
}

const SYSTEM: EventCause = { actor: { type: 'system', id: null } };
const inFlight = (t: Target) => IN_FLIGHT_STATUSES.includes(t.status);
const lastOf = (ids: number[] | null) => (ids && ids.length > 0 ? ids[ids.length - 1] : null);
const sortKey = (seq: number) => `e:${String(seq).padStart(19, '0')}`;

/**
 * TargetEventLog in memory. The database records target changes with triggers on `targets`
 * (`src/modules/target/infrastructure/targets.triggers.sql.ts`); here the target fakes report
 * each change to `changed`, which derives the same events by the same rules. Give it to the fake
 * that owns the target rows (`new InMemoryTargetRepository(events)` or
 * `new InMemoryTargetTransitions(undefined, events)`).
 *
 * Given listeners (`deliverTo`), it tells them of the events it records as the SQL adapter does after
 * a commit: while a unit of work given this fake is open, events wait; once none is, those not rolled
 * back are told, in the order recorded (the fakes have one state for all units of work, as their
 * rollback has: a rollback takes back what concurrent units recorded too). Events recorded outside any
 * unit of work are told at once.
 */
export class InMemoryTargetEventLog extends TargetEventLog implements Snapshottable<EventLogState> {
  private readonly events: StoredEvent[] = [];
  private cause: EventCause = SYSTEM;
  private seq = 0;
  private listeners: CampaignEventListeners | null = null;
  /** Units of work open; the sequence number up to which events were told to the listeners. */
  private openUnits = 0;
  private toldUpTo = 0;

  /** The listeners to tell of events (CampaignCallingTestingModule gives the registered ones). */
  deliverTo(listeners: CampaignEventListeners): void {
    this.listeners = listeners;
    this.toldUpTo = this.seq;
  }

  unitStarted(): void {
    this.openUnits++;
  }

  unitEnded(): void {
    this.openUnits--;
    this.tell();
  }

  /** The events and the cause in force, so a rolled-back unit of work takes its events back. */
  snapshot(): EventLogState {
    return { events: [...this.events], cause: this.cause };
  }

  /**
   * As a rollback: the events written since the snapshot go, and the cause goes back to what it was
   * (the triggers' `set_config(..., true)` settings end with their transaction). Sequence numbers are
   * not reused, as a database sequence is not.
   */
  restore(state: EventLogState): void {
    this.events.splice(0, this.events.length, ...state.events);
    this.cause = state.cause;
  }

  async attribute(_tx: Tx, cause: EventCause): Promise<void> {
    this.cause = clone(cause);
  }

  /**
   * What the triggers do: the events of one row's change, with the cause in force (or `cause`).
   * `deletedAt`: a deletion's time (the other events take theirs from the rows, as the triggers do).
   */
  changed(
    before: Target | null,
    after: Target | null,
    cause: EventCause = this.cause,
    deletedAt?: Date,
  ): void {
    const add = (
      t: Target,
      at: Date,
      kind: TargetEvent['kind'],
      status: TargetEvent['status'],
      fallback: string,
      data: Record<string, unknown>,
    ) =>
      this.push(t.organizationId, t.campaignId, {
        id: '',
        targetId: t.id,
        at: new Date(at),
        kind,
        status,
        actor: clone(cause.actorsByTarget?.[t.id] ?? cause.actor),
        reason: cause.reasonsByTarget?.[t.id] ?? cause.reason ?? fallback,
        data,
      });
    if (before === null && after !== null) {
      const words: Record<string, string> = {
        Pending: 'added, not launched: trigger calls or add with launch=true',
        Scheduled: 'added and launched',
        Waiting: `added, waiting for step ${after.currentStep}`,
      };
      add(
        after,
        after.createdAt,
        'added',
        after.status,
        words[after.status] ?? 'added',
        after.currentStep === null ? {} : { step: after.currentStep },
      );
      return;
    }
    if (before !== null && after === null) {
      if (!deletedAt) throw new Error('a deleted target’s event needs the time of its deletion');
      add(before, deletedAt, 'deleted', null, cause.reason ?? 'deleted', {
        last_status: before.status,
      });
      return;
    }
    if (before === null || after === null) return;
    const o = before;
    const n = after;
    if (JSON.stringify(n.inputData) !== JSON.stringify(o.inputData)) {
      const keys = Object.keys(n.inputData)
        .filter((k) => JSON.stringify(o.inputData[k]) !== JSON.stringify(n.inputData[k]))
        .sort();
      if (cause.stepData)
        add(n, n.updatedAt, 'step_data', null, 'step data received', { ...cause.stepData, keys });
      else add(n, n.updatedAt, 'input_edited', null, 'input data edited', { keys });
    }
    const started = n.status === 'In Progress' && !inFlight(o);
    const ended = inFlight(o) && !inFlight(n);
    if (started) {
      add(n, n.updatedAt, 'call_started', n.status, `call placed: attempt ${n.attempts}`, {
        call_log_id: lastOf(n.callLogIds),
        attempt: n.attempts,
      });
    } else if (ended) {
      add(
        n,
        n.updatedAt,
        'call_ended',
        n.status !== o.status ? n.status : null,
        `call ended: ${n.outcome ?? n.status}`,
        {
          call_log_id: lastOf(o.callLogIds),
          attempt: n.attempts,
          outcome: n.outcome,
          resolution: n.resolution,
          category: n.category,
          subcategory: n.subcategory,
          next_attempt_at:
            n.status === 'Scheduled' ? (n.scheduledTime?.toISOString() ?? null) : null,
        },
      );
    } else if (n.status !== o.status) {
      const fallback =
        n.status === 'Waiting'
          ? `waiting for step ${n.currentStep}`
          : n.outcome !== null && n.outcome !== o.outcome
            ? `${n.status.toLowerCase()}: ${n.outcome}`
            : `${o.status} -> ${n.status}`;
      const data: Record<string, unknown> = { from: o.status };
      if (n.currentStep !== null) data.step = n.currentStep;
      if (n.outcome !== null && n.outcome !== o.outcome) data.outcome = n.outcome;
      if (n.resolution !== null) data.resolution = n.resolution;
      if (n.status === 'Scheduled' && n.scheduledTime)
        data.scheduled_time = n.scheduledTime.toISOString();
      add(n, n.updatedAt, 'status_changed', n.status, fallback, data);
    }
    if (
      n.status === 'Scheduled' &&
      o.status === 'Scheduled' &&
      n.scheduledTime?.getTime() !== o.scheduledTime?.getTime()
    ) {
      add(n, n.updatedAt, 'deferred', null, 'deferred', {
        scheduled_time: n.scheduledTime?.toISOString() ?? null,
      });
    }
  }

  async list(
    organizationId: string,
    targetId: string,
    before: TimelinePosition | null,
    limit: number,
  ): Promise<TimelineEntry[]> {
    return this.events
      .filter((s) => s.event.targetId === targetId && s.organizationId === organizationId)
      .map((s) => ({
        event: clone(s.event),
        position: { atMicros: s.event.at.getTime() * 1000, key: sortKey(s.seq) },
      }))
      .filter(({ position }) => isOlder(position, before))
      .sort((a, b) => newestFirst(a.position, b.position))
      .slice(0, limit);
  }

  /** The whole history of targets taken back as never added (TargetRepository.withdrawAdded). */
  forget(organizationId: string, targetIds: string[]): void {
    const gone = new Set(targetIds);
    const kept = this.events.filter(
      (s) => !(s.organizationId === organizationId && gone.has(s.event.targetId)),
    );
    this.events.splice(0, this.events.length, ...kept);
  }

  /** Test helper: every event recorded, oldest first. */
  all(): TargetEvent[] {
    return this.events.map((s) => clone(s.event));
  }

  private push(organizationId: string, campaignId: string, event: TargetEvent): void {
    const seq = ++this.seq;
    this.events.push({ event: { ...event, id: String(seq) }, organizationId, campaignId, seq });
    this.tell();
  }

  /** With no unit of work open, the events recorded since the last told (and not rolled back). */
  private tell(): void {
    if (!this.listeners || this.openUnits > 0 || this.toldUpTo === this.seq) return;
    const told: TargetTimelineEvent[] = this.events
      .filter((s) => s.seq > this.toldUpTo)
      .map((s) => ({
        ...clone(s.event),
        // A Date of this realm (structuredClone's is Node's own, which `expect.any(Date)` refuses).
        at: new Date(s.event.at.getTime()),
        organizationId: s.organizationId,
        campaignId: s.campaignId,
      }));
    this.toldUpTo = this.seq;
    if (told.length > 0) this.listeners.targetEvents(told);
  }
}
