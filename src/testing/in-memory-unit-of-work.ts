import { Tx, UnitOfWork } from '../common/persistence/unit-of-work.js';

/** A fake whose state can be copied and put back, so a failed unit of work leaves no trace. */
export interface Snapshottable<S = unknown> {
  snapshot(): S;
  restore(state: S): void;
  /** Told as a unit of work given this fake starts (before its snapshot) and ends (after commit or restore). */
  unitStarted?(): void;
  unitEnded?(): void;
}

/**
 * Runs work with a dummy transaction. Given in-memory repositories, it snapshots them first and
 * restores them if the work throws (a rollback); given none, it just runs the work.
 */
export class InMemoryUnitOfWork extends UnitOfWork {
  private readonly stores: Snapshottable[];

  constructor(...stores: Snapshottable<any>[]) {
    super();
    this.stores = stores;
  }

  async run<T>(work: (tx: Tx) => Promise<T>): Promise<T> {
    for (const s of this.stores) s.unitStarted?.();
    const before = this.stores.map((s) => s.snapshot());
    const tx = {} as Tx;
    let committed = false;
    try {
      const result = await this.inTransaction(tx, work);
      committed = true;
      return result;
    } catch (err) {
      this.stores.forEach((s, i) => s.restore(before[i]));
      throw err;
    } finally {
      this.settled(tx, committed);
      for (const s of this.stores) s.unitEnded?.();
    }
  }
}
