/**
 * Group commit: one write in flight at a time; whatever is added while it runs waits and goes out
 * together in the next one. `add` resolves when the write holding its item has finished (rejects
 * with that write's error). Unlike CoalescingWriter (whose batches may run side by side), the writes
 * never compete with each other for connections or a lock: under load the batches grow instead.
 */
export class GroupCommitWriter<T> {
  private queue: { item: T; resolve: () => void; reject: (err: unknown) => void }[] = [];
  private writing = false;

  constructor(
    private readonly write: (items: T[]) => Promise<void>,
    private readonly maxBatch = 1000,
  ) {}

  add(item: T): Promise<void> {
    return new Promise((resolve, reject) => {
      this.queue.push({ item, resolve, reject });
      if (!this.writing) {
        this.writing = true;
        // The rest of this tick's callers join the first batch.
        setImmediate(() => void this.drain());
      }
    });
  }

  private async drain(): Promise<void> {
    while (this.queue.length > 0) {
      const batch = this.queue.splice(0, this.maxBatch);
      try {
        await this.write(batch.map((b) => b.item));
        batch.forEach((b) => b.resolve());
      } catch (err) {
        batch.forEach((b) => b.reject(err));
      }
    }
    this.writing = false;
  }
}
