import { ApiKeyRevocations } from '../modules/organization/application/ports/api-key-revocations.js';

/** Revocations announced by the test (`announce`), as other processes' revokes would arrive. */
export class InMemoryApiKeyRevocations extends ApiKeyRevocations {
  private readonly listeners: (() => void)[] = [];

  constructor(private ttlMs = 60_000) {
    super();
  }

  subscribe(onRevoked: () => void): void {
    this.listeners.push(onRevoked);
  }

  cacheTtlMs(): number {
    return this.ttlMs;
  }

  /** Test helper: what a NOTIFY from another process's revoke does. */
  announce(): void {
    for (const listener of this.listeners) listener();
  }

  /** Test helper: revocations stop arriving (the adapter's connection dropped, or PGlite). */
  setTtlMs(ms: number): void {
    this.ttlMs = ms;
  }
}
