import { definedOnly } from '../../../common/objects/defined-only.js';

/**
 * Tunables of the engine (from the environment in the app, literals in unit tests): each value
 * given replaces its default.
 */
export class CallingSettings {
  /** An accepted call with no final event after this long is asked of its provider (MAX_CALL_MINUTES). */
  readonly maxCallMinutes: number = 30;
  /** A claimed call the provider has not accepted after this long is recovered (a worker died placing it). */
  readonly placingDeadlineSeconds: number = 120;
  /** Calls placed per second per provider, shared by every worker (0: no limit). */
  readonly callsPerSecond: number = 50;
  /** Placements one process runs at once (each is one request to the provider). */
  readonly placementConcurrency: number = 50;
  /** Targets one dispatcher claims per transaction. */
  readonly claimBatchSize: number = 200;
  /** How long an idle dispatcher sleeps at most when no notification wakes it. */
  readonly pollIntervalMs: number = 2000;
  /** How often each worker looks for calls past their deadline. */
  readonly sweepIntervalMs: number = 10_000;
  /** PUBLIC_BASE_URL: providers post events to `{publicBaseUrl}/api/v1/telephony/{connection}/events`. */
  readonly publicBaseUrl: string = 'http://localhost:3000';

  constructor(values: Partial<CallingSettings> = {}) {
    Object.assign(this, definedOnly(values));
    this.publicBaseUrl = this.publicBaseUrl.replace(/\/$/, '');
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
