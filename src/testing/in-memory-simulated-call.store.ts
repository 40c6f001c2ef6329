import {
  SimulatedCall,
  SimulatedCallStore,
} from '../modules/calling/application/ports/simulated-call.store.js';

/** The simulator's running calls in a map, with the SQL store's rules (test/contracts proves them equal). */
export class InMemorySimulatedCallStore extends SimulatedCallStore {
  private readonly calls = new Map<string, SimulatedCall>();

  async record(calls: SimulatedCall[]): Promise<void> {
    for (const c of calls) {
      if (this.calls.has(c.id)) throw new Error(`simulated call ${c.id} already recorded`);
      this.calls.set(c.id, structuredClone(c));
    }
  }

  async find(ref: { providerCallId: string | null; callLogId: number }) {
    const found = [...this.calls.values()].find(
      (c) => c.id === ref.providerCallId || c.callLogId === ref.callLogId,
    );
    return found ? structuredClone(found) : null;
  }

  async takeDue(now: Date, retakeAt: Date, limit: number): Promise<SimulatedCall[]> {
    const due = [...this.calls.values()]
      .filter((c) => c.dueAt <= now)
      .sort((a, b) => a.dueAt.getTime() - b.dueAt.getTime())
      .slice(0, limit);
    for (const c of due) c.dueAt = new Date(retakeAt);
    return structuredClone(due);
  }

  async remove(ids: string[]): Promise<void> {
    for (const id of ids) this.calls.delete(id);
  }

  async nextDue(): Promise<Date | null> {
    let earliest: Date | null = null;
    for (const c of this.calls.values()) if (!earliest || c.dueAt < earliest) earliest = c.dueAt;
    return earliest && new Date(earliest);
  }
}
