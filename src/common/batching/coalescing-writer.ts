/**
 * Coalesces writes issued at the same moment into one batch: `add` queues an item and resolves when
 * the batch holding it has been written (or rejects with that batch's error). The first `add` after a
 * flush schedules the next one on `setImmediate`, so concurrent callers (e.g. 50 placements finishing
 * together) share one set-based statement instead of one round trip each.
 *
 * Two policies for what arrives while a batch is being written:
 * - `concurrent` (the default): the next batch is scheduled at once and may run beside it;
 * - `one-at-a-time` (group commit): one write in flight; everything added meanwhile waits and goes
 *   out together in the next one, so the writes never compete for connections or a lock and under
 *   load the batches grow instead (the audit trail, whose writes take a per-organization lock).
 */
export class CoalescingWriter<T> {
  private queue: { item: T; resolve: () => void; reject: (err: unknown) => void }[] = [];
  private scheduled = false;

  constructor(
    private readonly write: (items: T[]) => Promise<void>,
    private readonly maxBatch = 1000,
    private readonly policy: 'concurrent' | 'one-at-a-time' = 'concurrent',
  ) {}

  add(item: T): Promise<void> {
    return new Promise((resolve, reject) => {
      this.queue.push({ item, resolve, reject });
      if (!this.scheduled) {
        this.scheduled = true;
        // The rest of this tick's callers join the first batch.
        setImmediate(() => void this.flush());
      }
    });
  }

  private async flush(): Promise<void> {
    const batch = this.queue.splice(0, this.maxBatch);
    const concurrent = this.policy === 'concurrent';
    if (concurrent) this.scheduleNext();
    try {
      await this.write(batch.map((b) => b.item));
      batch.forEach((b) => b.resolve());
    } catch (err) {
      batch.forEach((b) => b.reject(err));
    }
    if (!concurrent) this.scheduleNext();
  }

  private scheduleNext(): void {
    this.scheduled = this.queue.length > 0;
    if (this.scheduled) setImmediate(() => void this.flush());
  }
}
