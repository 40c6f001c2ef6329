/** How deliveries are paced and recovered; built from the configuration by the module. */
export class WebhookSettings {
  /** Delays between attempts (WEBHOOK_RETRY_SCHEDULE): N delays, N + 1 attempts per run. */
  readonly retryScheduleMs: readonly number[];
  /**
   * How long a claimed delivery stays a worker's: longer than one send can take (timeout plus the
   * database writes), so only a dead worker's claim ever expires.
   */
  readonly leaseMs: number;
  /**
   * An unfinished delivery overdue by more than this is assumed to have lost its job, and is queued
   * again by the recovery sweep (which also runs this often).
   */
  readonly recoveryMs: number;
  /** Only worker processes sweep. */
  readonly runRecovery: boolean;
  /** Deliveries sent at once per worker process. */
  readonly concurrency: number;

  constructor(options: WebhookSettings) {
    Object.assign(this, options);
  }
}
