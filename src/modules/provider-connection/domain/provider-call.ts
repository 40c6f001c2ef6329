/** Our ids, as we attach them to a call (provider metadata, or the callback URL's query). */
export function callLogIdOf(value: unknown): number | null {
  const n = typeof value === 'string' ? Number(value) : value;
  return typeof n === 'number' && Number.isSafeInteger(n) && n >= 0 ? n : null;
}
