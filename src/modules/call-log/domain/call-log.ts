/**
 * A call log: one call attempt for a target, written when the call starts and completed when it ends.
 * Call logs outlive their target (no foreign key to targets).
 */
export interface CallLog {
  id: number;
  organizationId: string;
  campaignId: string;
  targetId: string;
  attempt: number;
  to: string;
  from: string;
  provider: string;
  providerCallId: string | null;
  /** The engine's outcome code (GOOD, NO_RESPONSE, ...), null while the call runs. */
  outcome: string | null;
  endedReason: string | null;
  callCategorization: Record<string, unknown> | null;
  agentData: Record<string, unknown>;
  postCallData: Record<string, unknown> | null;
  qa: Record<string, unknown> | null;
  transcripts: Record<string, string>[];
  recordingUrls: string[];
  /**
   * What the call produced for its target (output data, provider subcategory), kept with the call so
   * that a worker that dies before applying them to the target loses nothing: recovery applies them.
   */
  outputData: Record<string, unknown> | null;
  subcategory: string | null;
  startedAt: Date;
  endedAt: Date | null;
  durationSeconds: number | null;
  /**
   * While the call is open: when the deadline sweep asks the provider about it (a short placing
   * deadline until the provider accepted the call, then started + MAX_CALL_MINUTES). No lease: a call
   * in flight holds nothing.
   */
  deadlineAt: Date | null;
  createdAt: Date;
}

export interface NewCallLog {
  organizationId: string;
  campaignId: string;
  targetId: string;
  attempt: number;
  to: string;
  from: string;
  provider: string;
  startedAt: Date;
  deadlineAt: Date;
}

export interface CallLogCompletion {
  outcome: string;
  endedReason: string;
  providerCallId: string | null;
  callCategorization: Record<string, unknown> | null;
  agentData: Record<string, unknown>;
  postCallData: Record<string, unknown> | null;
  qa: Record<string, unknown> | null;
  transcripts: Record<string, string>[];
  recordingUrls: string[];
  outputData: Record<string, unknown> | null;
  subcategory: string | null;
  endedAt: Date;
  durationSeconds: number;
}

/** `HH:MM:SS` (hours may exceed 24). */
export function formatCallLength(seconds: number | null): string {
  const s = Math.max(0, Math.round(seconds ?? 0));
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${pad(Math.floor(s / 3600))}:${pad(Math.floor((s % 3600) / 60))}:${pad(s % 60)}`;
}

/** The reason shown while a call has not ended yet. */
export const CALL_IN_PROGRESS_REASON = 'in-progress';
