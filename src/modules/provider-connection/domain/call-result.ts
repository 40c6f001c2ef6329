import type { CallResult } from '../../calling/application/ports/call-provider.js';

/**
 * What a provider's final call report means for us: the calling engine's call result, built by each
 * provider's mapping table (outcome, ended reason, duration, transcripts as `{role, message}` turns,
 * recordings, post-call data, QA and output data).
 */
export type MappedCallResult = CallResult;

export const isRecord = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

/** Whole seconds between two instants, never negative; 0 when either is unknown. */
export function secondsBetween(start: Date | null, end: Date | null): number {
  if (!start || !end) return 0;
  return Math.max(0, Math.round((end.getTime() - start.getTime()) / 1000));
}
