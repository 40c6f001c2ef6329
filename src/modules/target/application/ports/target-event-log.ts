import type { Principal } from '../../../../common/auth/auth-context.js';
import { Tx } from '../../../../common/persistence/unit-of-work.js';
import type { TargetStatus } from '../../domain/target.js';

/**
 * Who or what caused a change: an API key or a signed-in person (their id), a worker, a provider
 * event, or the system.
 */
export type EventActorType = 'api_key' | 'user' | 'worker' | 'provider' | 'system';

export interface EventActor {
  type: EventActorType;
  /** The API key's or person's id, the provider's event or connection id; null for workers and the system. */
  id: string | null;
}

export const WORKER: EventActor = { type: 'worker', id: null };
export const SYSTEM_ACTOR: EventActor = { type: 'system', id: null };
export const apiKeyActor = (apiKeyId: string): EventActor => ({ type: 'api_key', id: apiKeyId });
/** The actor of a request: its API key or its signed-in person. */
export const principalActor = (principal: Principal): EventActor => ({
  type: principal.kind,
  id: principal.id,
});

/** What the next changes of targets in a transaction are recorded with. */
export interface EventCause {
  actor: EventActor;
  /** Words for every changed target; without them the event gets the words the change implies. */
  reason?: string;
  /** Words per target id, for a statement whose targets have different reasons (e.g. windows). */
  reasonsByTarget?: Record<string, string>;
  /** The actor per target id, for a statement whose targets were moved by different causes. */
  actorsByTarget?: Record<string, EventActor>;
  /**
   * Input data changed by a step payload: recorded as `step_data` (not `input_edited`) with `data`
   * (the step, the EHR event type) added to the event's data.
   */
  stepData?: Record<string, unknown>;
}

export const TIMELINE_KINDS = [
  'added',
  'status_changed',
  'input_edited',
  'call_started',
  'call_ended',
  'deferred',
  'step_data',
  'notification',
  'deleted',
] as const;
export type TimelineKind = (typeof TIMELINE_KINDS)[number];

/** One entry of a target's timeline. */
export interface TargetEvent {
  id: string;
  targetId: string;
  at: Date;
  kind: TimelineKind;
  /** The status after the event, when the event changed it (or set it: `added`). */
  status: TargetStatus | null;
  actor: EventActor;
  reason: string;
  data: Record<string, unknown>;
}

/**
 * A change of a target as its timeline records it (`GET /targets/{id}/timeline` shows the same id,
 * kind, status, actor, reason and data), with the organization and campaign it happened in: what
 * `CampaignEventListener.onTargetEvent` is told. `at` is when it happened (the timeline's `at`); `id`
 * grows with each event recorded (a number, as text), so a listener can drop one it already has.
 */
export interface TargetTimelineEvent extends TargetEvent {
  organizationId: string;
  campaignId: string;
}

/**
 * A place in a timeline (newest first): just before the event at `atMicros` (microseconds since the
 * epoch, the column's precision) with sort key `key`. Keys order events of the same instant.
 */
export interface TimelinePosition {
  atMicros: number;
  key: string;
}

export interface TimelineEntry {
  event: TargetEvent;
  position: TimelinePosition;
}

/**
 * A target's history, owned by the target module (table `target_events`). Changes of `targets` record
 * themselves (database triggers in the same statement, so the same transaction); a writer only says who
 * and why first, with `attribute` (a step payload's merge says it is one: `stepData`), and runs its
 * change through `relay`, so that the registered listeners are told of the events it records.
 */
export abstract class TargetEventLog {
  /** Who and why for the changes of targets that `tx` makes next (until attributed again). */
  abstract attribute(tx: Tx, cause: EventCause): Promise<void>;

  /**
   * For the adapters that change `targets`: runs `change` (in `tx`, the transaction it is given) so
   * that every event the transaction records is told to the registered listeners
   * (`CampaignEventListener.onTargetEvent`) once it has committed, in the order recorded, and none if
   * it rolls back. With no `tx`, the change runs in a transaction of its own when a listener needs
   * one (else as it is, `tx` null). Without listeners it only runs `change`, as this default does
   * (for an adapter of a team's own, whose events reach no listener unless it overrides this).
   */
  relay<T>(tx: Tx | null, change: (tx: Tx | null) => Promise<T>): Promise<T> {
    return change(tx);
  }

  /**
   * The target's events in the organization, newest first, strictly before `before` (null: from the
   * newest), at most `limit`. Also the events of a deleted target.
   */
  abstract list(
    organizationId: string,
    targetId: string,
    before: TimelinePosition | null,
    limit: number,
  ): Promise<TimelineEntry[]>;
}
