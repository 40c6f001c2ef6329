/**
 * A transaction, opaque to application code: services pass it from `UnitOfWork.run` to the ports that
 * must write in it (repositories, the job queue), so a state change and the job it causes commit or
 * roll back together. Only adapters look inside.
 */
export interface Tx {
  readonly __brand: 'Tx';
}

export abstract class UnitOfWork {
  /** The hooks of each open transaction, run once it has committed (dropped if it rolls back). */
  private readonly committedHooks = new WeakMap<Tx, (() => void)[]>();
  /** The hooks of each open transaction, run once it has ended either way. */
  private readonly endedHooks = new WeakMap<Tx, (() => void)[]>();
  /** The hooks of each open transaction, run in it once its work has succeeded, before it commits. */
  private readonly committingHooks = new WeakMap<Tx, (() => Promise<void>)[]>();

  abstract run<T>(work: (tx: Tx) => Promise<T>): Promise<T>;

  /**
   * Runs `hook` once `tx` has committed, never if it rolls back; with no open unit of work (`tx`
   * null, or one this unit of work did not open), the write has already committed: `hook` runs now.
   * Hooks must not throw and must not wait: they start work of their own (e.g. in-process listeners).
   */
  afterCommit(tx: Tx | null, hook: () => void): void {
    const hooks = tx ? this.committedHooks.get(tx) : undefined;
    if (hooks) hooks.push(hook);
    else hook();
  }

  /**
   * Runs `hook` once `tx` has ended, committed or rolled back (now when no unit of work of this one is
   * open): for in-memory adapters that hold something for a transaction's length, as a database holds
   * its locks. Same rules as `afterCommit`.
   */
  afterEnd(tx: Tx | null, hook: () => void): void {
    const hooks = tx ? this.endedHooks.get(tx) : undefined;
    if (hooks) hooks.push(hook);
    else hook();
  }

  /**
   * Runs `hook` in `tx` once its work has succeeded, just before it commits (after the hooks added
   * before it); what it throws rolls `tx` back. For adapters that must read what the whole
   * transaction wrote (the target events the listeners are told of). `tx` must be open in this unit
   * of work.
   */
  beforeCommit(tx: Tx, hook: () => Promise<void>): void {
    const hooks = this.committingHooks.get(tx);
    if (!hooks) throw new Error('beforeCommit: the transaction is not open in this unit of work');
    hooks.push(hook);
  }

  /**
   * For adapters: `work` in `tx`, with `afterCommit` and `afterEnd` hooks recorded while it runs,
   * then the `beforeCommit` hooks (the adapter commits when this resolves).
   */
  protected async inTransaction<T>(tx: Tx, work: (tx: Tx) => Promise<T>): Promise<T> {
    this.committedHooks.set(tx, []);
    this.endedHooks.set(tx, []);
    const committing: (() => Promise<void>)[] = [];
    this.committingHooks.set(tx, committing);
    try {
      const result = await work(tx);
      // A hook may add another (read in order, as they come).
      for (let i = 0; i < committing.length; i++) await committing[i]();
      return result;
    } finally {
      this.committingHooks.delete(tx);
    }
  }

  /** For adapters: after `tx` committed (`committed`) or rolled back, its hooks run or are dropped. */
  protected settled(tx: Tx, committed: boolean): void {
    const hooks = this.committedHooks.get(tx) ?? [];
    const ended = this.endedHooks.get(tx) ?? [];
    this.committedHooks.delete(tx);
    this.endedHooks.delete(tx);
    if (committed) for (const hook of hooks) hook();
    for (const hook of ended) hook();
  }
}
