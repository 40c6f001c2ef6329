/**
 * Periodic housekeeping that every worker schedules but only one process in the deployment should run
 * at a time (e.g. the webhook recovery sweep). The adapter holds a PostgreSQL advisory lock while the
 * work runs; a process that cannot take it skips this round.
 */
export abstract class ExclusiveRunner {
  /** Runs `work` unless another process runs the task of that name; `skipped` when it does. */
  abstract runExclusive<T>(
    task: string,
    work: () => Promise<T>,
  ): Promise<{ ran: true; result: T } | { ran: false }>;
}
