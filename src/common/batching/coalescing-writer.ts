/**
 * Coalesces writes issued at the same moment into one batch: `add` queues an item and resolves when
 * the batch holding it has been written (or rejects with that batch's error). The first `add` after a
 * flush schedules the next one on `setImmediate`, so concurrent callers (e.g. 50 placements finishing
 * together) share one set-based statement instead of one round trip each.
 */
export class CoalescingWriter<T> {
  private queue: { item: T; resolve: () => void; reject: (err: unknown) => void }[] = [];
  private scheduled = false;

  constructor(
    private readonly write: (items: T[]) => Promise<void>,
    private readonly maxBatch = 1000,
  ) {}

  add(item: T): Promise<void> {
    return new Promise((resolve, reject) => {
      this.queue.push({ item, resolve, reject });
      if (!this.scheduled) {
        this.scheduled = true;
        setImmediate(() => void this.flush());
      }
    });
  }

  private async flush(): Promise<void> {
    const batch = this.queue.splice(0, this.maxBatch);
    this.scheduled = this.queue.length > 0;
    if (this.scheduled) setImmediate(() => void this.flush());
    try {
      await this.write(batch.map((b) => b.item));
      batch.forEach((b) => b.resolve());
    } catch (err) {
      batch.forEach((b) => b.reject(err));
    }
  }
}
