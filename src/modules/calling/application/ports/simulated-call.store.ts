import type { CallRef } from '../../../telephony/application/ports/call-provider.js';
import type { CallOutcome, VoicemailSubcategory } from '../../../telephony/domain/call-outcome.js';

/** What a simulated call keeps until it ends (no phone number: only what the result needs). */
export interface SimulatedRequest {
  outcome: CallOutcome;
  endedReason: string;
  /** A voicemail drop's result; absent on older rows and other endings. */
  subcategory?: VoicemailSubcategory;
  durationSeconds: number;
  attempt: number;
  inputData: Record<string, unknown>;
  /** The campaign's voicemail message, filled in, for a voicemail with a mailbox; absent: none. */
  voicemailMessage?: string;
  startedAt: string;
}

export interface SimulatedCall {
  id: string;
  callLogId: number;
  dueAt: Date;
  request: SimulatedRequest;
}

/**
 * The simulator's running calls (`simulated_calls`), durable so that a call ends even if the process
 * that placed it dies; any worker delivers those that are due.
 */
export abstract class SimulatedCallStore {
  abstract record(calls: SimulatedCall[]): Promise<void>;
  /** The running call with this provider call id, or else for this call log; null when none. */
  abstract find(ref: CallRef): Promise<SimulatedCall | null>;
  /**
   * Takes up to `limit` calls due at `now` (earliest first), moving their due time to `retakeAt` so
   * that another worker takes them only if this one dies before `remove`.
   */
  abstract takeDue(now: Date, retakeAt: Date, limit: number): Promise<SimulatedCall[]>;
  abstract remove(ids: string[]): Promise<void>;
  /** The earliest due time of a running call; null when none runs. */
  abstract nextDue(): Promise<Date | null>;
}
