/** A sleep that a `wake()` cuts short (a notification, a freed placement slot, shutdown). */
export class Wakeup {
  private pending: (() => void) | null = null;
  private woken = false;

  wake(): void {
    this.woken = true;
    this.pending?.();
  }

  /** Sleeps up to `ms`; returns at once if woken since the last sleep. */
  sleep(ms: number): Promise<void> {
    if (this.woken) {
      this.woken = false;
      return Promise.resolve();
    }
    return new Promise((resolve) => {
      const done = () => {
        clearTimeout(timer);
        this.pending = null;
        this.woken = false;
        resolve();
      };
      const timer = setTimeout(done, Math.max(0, ms));
      this.pending = done;
    });
  }
}
