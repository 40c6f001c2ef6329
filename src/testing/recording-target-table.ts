import { clone } from './in-memory-rows.js';
import type { InMemoryTargetEventLog } from './in-memory-target-event-log.js';
import type { TargetTable } from './in-memory-target.repository.js';

/** `rows` reporting each change to `events`, as the database's triggers record them. */
export function recordingTable(rows: TargetTable, events: InMemoryTargetEventLog): TargetTable {
  return {
    get: (key) => rows.get(key),
    set: (key, target) => {
      const before = rows.get(key);
      events.changed(before ? clone(before) : null, clone(target));
      rows.set(key, target);
    },
    values: () => rows.values(),
  };
}
