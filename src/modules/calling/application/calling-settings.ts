/** Tunables of the engine (from the environment in the app, literals in unit tests). */
export interface CallingSettingsValues {
  /** An accepted call with no final event after this long is asked of its provider (MAX_CALL_MINUTES). */
  maxCallMinutes: number;
  /** A claimed call the provider has not accepted after this long is recovered (a worker died placing it). */
  placingDeadlineSeconds: number;
  /** Calls placed per second per provider, shared by every worker (0: no limit). */
  callsPerSecond: number;
  /** Placements one process runs at once (each is one request to the provider). */
  placementConcurrency: number;
  /** Targets one dispatcher claims per transaction. */
  claimBatchSize: number;
  /** How long an idle dispatcher sleeps at most when no notification wakes it. */
  pollIntervalMs: number;
  /** How often each worker looks for calls past their deadline. */
  sweepIntervalMs: number;
  /** PUBLIC_BASE_URL: providers post events to `{publicBaseUrl}/api/v1/telephony/{connection}/events`. */
  publicBaseUrl: string;
}

export class CallingSettings implements CallingSettingsValues {
  readonly maxCallMinutes: number;
  readonly placingDeadlineSeconds: number;
  readonly callsPerSecond: number;
  readonly placementConcurrency: number;
  readonly claimBatchSize: number;
  readonly pollIntervalMs: number;
  readonly sweepIntervalMs: number;
  readonly publicBaseUrl: string;

  constructor(values: Partial<CallingSettingsValues> = {}) {
    this.maxCallMinutes = values.maxCallMinutes ?? 30;
    this.placingDeadlineSeconds = values.placingDeadlineSeconds ?? 120;
    this.callsPerSecond = values.callsPerSecond ?? 50;
    this.placementConcurrency = values.placementConcurrency ?? 50;
    this.claimBatchSize = values.claimBatchSize ?? 200;
    this.pollIntervalMs = values.pollIntervalMs ?? 2000;
    this.sweepIntervalMs = values.sweepIntervalMs ?? 10_000;
    this.publicBaseUrl = (values.publicBaseUrl ?? 'http://localhost:3000').replace(/\/$/, '');
  }

  eventsUrl(connection: string): string {
    return `${this.publicBaseUrl}/api/v1/telephony/${encodeURIComponent(connection)}/events`;
  }

  callDeadline(startedAt: Date): Date {
    return new Date(startedAt.getTime() + this.maxCallMinutes * 60_000);
  }

  placingDeadline(claimedAt: Date): Date {
    return new Date(claimedAt.getTime() + this.placingDeadlineSeconds * 1000);
  }
}
