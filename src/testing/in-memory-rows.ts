/**
 * What the in-memory fakes share about their rows: copies, the adapters' orderings, pages and
 * partial updates. Not part of the ./testing entry.
 */

/** A deep copy: a fake never hands out, nor keeps, an object its caller holds. */
export const clone = <T>(value: T): T => structuredClone(value);

/** PostgreSQL orders uuids by their bytes, which for the canonical lowercase form is string order. */
export const compareIds = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

/** Oldest first, ties by id: the adapters' `ORDER BY created_at, id`. */
export const byCreatedThenId = (
  a: { createdAt: Date; id: string },
  b: { createdAt: Date; id: string },
): number => a.createdAt.getTime() - b.createdAt.getTime() || compareIds(a.id, b.id);

/** The rows from `offset`, at most `limit`, each copied by `copy`, and the count of all rows. */
export const pageOf = <T>(
  rows: T[],
  offset: number,
  limit: number,
  copy: (row: T) => T = clone,
) => ({
  items: rows.slice(offset, offset + limit).map(copy),
  total: rows.length,
});

/** A position in a newest-first timeline: its time, ties broken by `key`. */
interface TimelinePosition {
  atMicros: number;
  key: string;
}

/** Whether `p` comes after `before` in a newest-first timeline (all do when there is no `before`). */
export const isOlder = (p: TimelinePosition, before: TimelinePosition | null): boolean =>
  before === null ||
  p.atMicros < before.atMicros ||
  (p.atMicros === before.atMicros && p.key < before.key);

/** Newest first, ties by key descending. */
export const newestFirst = (a: TimelinePosition, b: TimelinePosition): number =>
  b.atMicros - a.atMicros || (a.key < b.key ? 1 : -1);
