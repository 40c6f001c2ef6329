import { Tx } from '../common/persistence/unit-of-work.js';
import {
  CallEventStore,
  ReceivedCallEvent,
} from '../modules/calling/application/ports/call-event.store.js';
import {
  CallEvent,
  CallProvider,
  CallProviders,
} from '../modules/telephony/application/ports/call-provider.js';
import { PlacementRate } from '../modules/calling/application/ports/placement-rate.js';

/** Provider events kept in a map, once per (connection, key), like the SQL store. */
export class InMemoryCallEventStore extends CallEventStore {
  stored = new Map<string, CallEvent & { connection: string; callLogId: number }>();

  async storeNew(_tx: Tx, connection: string, events: ReceivedCallEvent[]): Promise<Set<string>> {
    const added = new Set<string>();
    for (const e of events) {
      const id = `${connection}\u0000${e.key}`;
      if (this.stored.has(id)) continue;
      this.stored.set(id, { ...structuredClone(e), connection });
      added.add(e.key);
    }
    return added;
  }

  snapshot() {
    return structuredClone(this.stored);
  }
  restore(state: Map<string, CallEvent & { connection: string; callLogId: number }>): void {
    this.stored = state;
  }
}

/** The per-second placement budget in memory, with the SQL adapter's arithmetic. */
export class InMemoryPlacementRate extends PlacementRate {
  private readonly windows = new Map<string, { second: number; placed: number }>();

  async take(_tx: Tx, provider: string, wanted: number, limit: number, now: Date) {
    const second = Math.floor(now.getTime() / 1000);
    const w = this.windows.get(provider);
    const placed = w && w.second === second ? w.placed : 0;
    const granted = Math.max(0, Math.min(wanted, limit - placed));
    this.windows.set(provider, { second, placed: placed + granted });
    return granted;
  }
}

/** One provider for every campaign, by its name. */
export class SingleCallProviders extends CallProviders {
  constructor(readonly placing: CallProvider) {
    super();
  }
  forCampaign(): Promise<CallProvider> {
    return Promise.resolve(this.placing);
  }
  get(connection: string): Promise<CallProvider | null> {
    return Promise.resolve(connection === this.placing.name ? this.placing : null);
  }
}
