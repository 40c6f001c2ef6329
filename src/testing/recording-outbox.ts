import { Tx } from '../common/persistence/unit-of-work.js';
import { Outbox, OutboxEvent, OutboxEventOf } from '../modules/webhook/application/ports/outbox.js';

/** Outbox that keeps the events (rolled back with the unit of work). */
export class RecordingOutbox extends Outbox {
  events: OutboxEvent[] = [];

  async record(_tx: Tx, events: readonly OutboxEvent[]): Promise<void> {
    this.events.push(...structuredClone(events));
  }

  /** The events of one kind, in the order recorded. */
  of<K extends OutboxEvent['kind']>(kind: K): OutboxEventOf<K>[] {
    return this.events.flatMap((e) => (e.kind === kind ? [e.event as OutboxEventOf<K>] : []));
  }

  snapshot(): OutboxEvent[] {
    return structuredClone(this.events);
  }

  restore(state: OutboxEvent[]): void {
    this.events = state;
  }
}
