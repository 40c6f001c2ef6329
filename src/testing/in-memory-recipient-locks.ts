import { Tx, UnitOfWork } from '../common/persistence/unit-of-work.js';
import { RecipientLocks } from '../modules/compliance/application/ports/recipient-locks.js';

/**
 * The SQL adapter's transaction locks, in memory: concurrent transactions of one test interleave at
 * every await, so a claim must wait here as it waits on PostgreSQL's advisory lock. A lock is held
 * until its transaction ends (committed or rolled back) and is re-entrant within it.
 */
export class InMemoryRecipientLocks extends RecipientLocks {
  /** Per organization and number: the transaction holding it, and when it lets go. */
  private readonly held = new Map<string, { tx: Tx; released: Promise<void> }>();

  constructor(private readonly unitOfWork: UnitOfWork) {
    super();
  }

  async lock(tx: Tx, organizationId: string, phoneNumbers: string[]): Promise<void> {
    // In one order, as the SQL adapter takes them, so that two claims never wait on each other.
    for (const number of [...new Set(phoneNumbers)].sort()) {
      const key = `${organizationId}\u0000${number}`;
      for (;;) {
        const holder = this.held.get(key);
        if (holder?.tx === tx) break;
        if (holder) {
          await holder.released;
          continue;
        }
        let release!: () => void;
        const released = new Promise<void>((resolve) => (release = resolve));
        this.held.set(key, { tx, released });
        this.unitOfWork.afterEnd(tx, () => {
          this.held.delete(key);
          release();
        });
        break;
      }
    }
  }
}
