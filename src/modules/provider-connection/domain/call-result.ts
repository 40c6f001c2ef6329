/**
 * Helpers of the providers' mapping tables, which turn a provider's final call report into the calling
 * engine's `CallResult` (outcome, ended reason, duration, transcripts as `{role, message}` turns,
 * recordings, post-call data, QA and output data).
 */

export const isRecord = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

/** Whole seconds between two instants, never negative; 0 when either is unknown. */
export function secondsBetween(start: Date | null, end: Date | null): number {
  if (!start || !end) return 0;
  return Math.max(0, Math.round((end.getTime() - start.getTime()) / 1000));
}

/**
 * A provider's transcript as `{role, message}` turns: the entries of `list` (when it is a list) whose
 * role is one of `roles` (mapped to ours) and whose `textKey` is text; anything else is left out.
 */
export function transcriptTurns(
  list: unknown,
  roles: Record<string, string>,
  textKey: string,
): { role: string; message: string }[] {
  if (!Array.isArray(list)) return [];
  return list.flatMap((turn: unknown) => {
    if (!isRecord(turn)) return [];
    const { role, [textKey]: text } = turn;
    return typeof role === 'string' && Object.hasOwn(roles, role) && typeof text === 'string'
      ? [{ role: roles[role], message: text }]
      : [];
  });
}
