import { CallFinishedEvent, CallFinishedOutbox } from '../common/events/call-finished';
import { Tx } from '../common/persistence/unit-of-work';
import { NumberBlacklist } from '../modules/calling/application/ports/number-blacklist';

export class RecordingCallFinishedOutbox extends CallFinishedOutbox {
  readonly events: CallFinishedEvent[] = [];
  async record(_tx: Tx, event: CallFinishedEvent): Promise<void> {
    this.events.push(structuredClone(event));
  }
}

export class InMemoryNumberBlacklist extends NumberBlacklist {
  private readonly lists = new Map<string, Set<string>>();
  add(blacklistId: string, ...numbers: string[]): void {
    const set = this.lists.get(blacklistId) ?? new Set();
    numbers.forEach((n) => set.add(n));
    this.lists.set(blacklistId, set);
  }
  async findBlacklisted(blacklistIds: string[], phoneNumbers: string[]): Promise<Set<string>> {
    return new Set(
      phoneNumbers.filter((n) => blacklistIds.some((id) => this.lists.get(id)?.has(n))),
    );
  }
}
