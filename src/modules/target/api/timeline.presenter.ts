import type { TimelineEntry } from '../application/ports/target-event-log.js';

/** A timeline entry on the wire (TimelineEventResponseDto). */
export function presentTimelineEntry({ event }: TimelineEntry) {
  return {
    id: event.id,
    at: event.at.toISOString(),
    kind: event.kind,
    status: event.status,
    actor: { type: event.actor.type, id: event.actor.id },
    reason: event.reason,
    data: event.data,
  };
}
