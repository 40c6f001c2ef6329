/**
 * What the application tells operators, counted (Prometheus at `/metrics`). Application services
 * call it; the adapter is `PrometheusMetrics`, the fake `RecordingMetrics` in src/testing.
 */
export abstract class Metrics {
  /** A call was handed to the telephony provider. */
  abstract callPlaced(provider: string): void;
  /** A call ended; `outcome` is its category or technical result (GOOD, NO_RESPONSE, failed, ...). */
  abstract callEnded(provider: string, outcome: string): void;
  /** One webhook delivery attempt and what became of the delivery. */
  abstract webhookAttempt(outcome: WebhookAttemptOutcome, durationMs: number): void;
}

export type WebhookAttemptOutcome = 'delivered' | 'retry' | 'failed' | 'gone' | 'lease_lost';
