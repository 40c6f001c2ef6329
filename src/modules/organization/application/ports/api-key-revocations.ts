/**
 * Where this process hears that an API key was revoked, by itself or by any other process, so that it
 * can keep looked-up keys in memory (one lookup per request was a database round trip on every call)
 * and still stop honouring a revoked key within a second everywhere.
 */
export abstract class ApiKeyRevocations {
  /** `onRevoked` runs whenever some key may have been revoked anywhere (which one is not said). */
  abstract subscribe(onRevoked: () => void): void;

  /**
   * How long a key looked up now may be honoured without asking the database again: long while
   * revocations are known to reach this process, at most one second otherwise.
   */
  abstract cacheTtlMs(): number;
}
