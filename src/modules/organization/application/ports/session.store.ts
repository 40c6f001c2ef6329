import type { Session } from '../../domain/user.js';

export interface FailureLimit {
  subject: string;
  /** Failures within the window that lock the subject. */
  limit: number;
}

/** Signed-in sessions, and failed sign-ins counted per subject (an account, a client address). */
export abstract class SessionStore {
  abstract createSession(userId: string, tokenHash: string, now: Date): Promise<Session>;
  /** The session, unless it ended or its person was deactivated (timeouts are the service's call). */
  abstract findSession(tokenHash: string): Promise<Session | null>;
  /** Sets `last_seen_at` to `now` unless it was set within LAST_SEEN_PRECISION_MS. */
  abstract touchSession(id: string, now: Date): Promise<void>;
  /** Ends the session; false when it had ended already. */
  abstract endSession(id: string, now: Date): Promise<boolean>;
  /** The latest time until which any of the subjects is locked, if one is locked at `now`. */
  abstract lockedUntil(subjects: string[], now: Date): Promise<Date | null>;
  /**
   * Counts one failure of each subject in its window (`windowMs`, started by its first failure); a
   * subject reaching its limit is locked until `now + lockoutMs` and starts counting again. Answers
   * the subjects this failure locked.
   */
  abstract recordFailure(
    limits: FailureLimit[],
    now: Date,
    windowMs: number,
    lockoutMs: number,
  ): Promise<{ subject: string; lockedUntil: Date }[]>;
  /** Forgets a subject's failures (an account that signed in). */
  abstract clearFailures(subject: string): Promise<void>;
}
