/**
 * An in-memory copy of what a lookup returned, each entry until its deadline: it only saves lookups,
 * so it is bounded (past `maxEntries` it starts over empty) and never keeps "not found". A lookup that
 * was under way when an entry was forgotten is returned but not kept: it may have read what the
 * change replaced.
 */
export class ExpiringCache<K, V> {
  private readonly entries = new Map<K, { value: V; until: number }>();
  /** Bumped by every forget, so a lookup that raced one is not kept. */
  private generation = 0;

  constructor(private readonly maxEntries: number) {}

  /**
   * The kept value while `now` is before its deadline; else `lookup()`'s, kept until `now + ttlMs`
   * (the deadline counts from before the lookup: a change landing during it is not outlived).
   */
  async get(
    key: K,
    now: number,
    ttlMs: number,
    lookup: () => Promise<V | null>,
  ): Promise<V | null> {
    const kept = this.entries.get(key);
    if (kept && kept.until > now) return kept.value;
    const generation = this.generation;
    const value = await lookup();
    if (value === null) {
      this.entries.delete(key);
      return null;
    }
    if (generation === this.generation) {
      if (this.entries.size >= this.maxEntries) this.entries.clear();
      this.entries.set(key, { value, until: now + ttlMs });
    }
    return value;
  }

  forget(key: K): void {
    this.generation++;
    this.entries.delete(key);
  }

  forgetAll(): void {
    this.generation++;
    this.entries.clear();
  }
}
