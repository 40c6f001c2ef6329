import { ExclusiveRunner } from '../common/persistence/exclusive-runner.js';

/** One run of a task at a time within this process (the adapter does it across processes). */
export class InProcessExclusiveRunner extends ExclusiveRunner {
  private readonly running = new Set<string>();

  async runExclusive<T>(
    task: string,
    work: () => Promise<T>,
  ): Promise<{ ran: true; result: T } | { ran: false }> {
    if (this.running.has(task)) return { ran: false };
    this.running.add(task);
    try {
      return { ran: true, result: await work() };
    } finally {
      this.running.delete(task);
    }
  }
}
