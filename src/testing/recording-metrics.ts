import { Metrics, WebhookAttemptOutcome } from '../common/metrics/metrics.js';

/** Keeps what was counted, for assertions. */
export class RecordingMetrics extends Metrics {
  readonly callsPlaced: string[] = [];
  readonly callsEnded: { provider: string; outcome: string }[] = [];
  readonly webhookAttempts: WebhookAttemptOutcome[] = [];

  callPlaced(provider: string): void {
    this.callsPlaced.push(provider);
  }

  callEnded(provider: string, outcome: string): void {
    this.callsEnded.push({ provider, outcome });
  }

  webhookAttempt(outcome: WebhookAttemptOutcome): void {
    this.webhookAttempts.push(outcome);
  }
}
