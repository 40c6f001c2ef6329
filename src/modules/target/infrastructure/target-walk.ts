/**
 * Where a target page's index walk starts, from counts per second of creation (the position deltas,
 * or a last-call bound's matches per second): pure arithmetic, kept apart so it is unit-tested.
 */

/** Where a page's index walk starts: a bound on created_at, a direction and how many to skip. */
export interface WalkStart {
  /** Seconds since the epoch: the bound's instant. */
  from: string;
  side: '>=' | '<';
  order: 'ASC' | 'DESC';
  skip: number;
}

/** How many of a list's targets were created in one second (seconds since the epoch). */
export interface SecondCount {
  second: bigint;
  targets: number;
}

/**
 * Where a walk for the target `skip` places from the `order` end starts, given the second of
 * creation that holds it (`inSecond` targets, `through` up to and including it from that end): the
 * second's near edge, or its far edge when the page lies in the second's far half.
 */
export function walkInSecond(
  second: bigint,
  inSecond: number,
  through: number,
  order: 'ASC' | 'DESC',
  skip: number,
  take: number,
): WalkStart {
  const within = skip - (through - inSecond);
  const start = second.toString();
  const end = (second + 1n).toString();
  const near =
    order === 'ASC' ? { from: start, side: '>=' as const } : { from: end, side: '<' as const };
  const far =
    order === 'ASC' ? { from: end, side: '<' as const } : { from: start, side: '>=' as const };
  const fromFarEdge = inSecond - within - take;
  if (fromFarEdge >= 0 && fromFarEdge < within)
    return { ...far, order: order === 'ASC' ? 'DESC' : 'ASC', skip: fromFarEdge };
  return { ...near, order, skip: within };
}

/**
 * The walk's start for the target `skip` places from the `order` end of `seconds` (ascending), by a
 * running sum; null past the end.
 */
export function startAmong(
  seconds: SecondCount[],
  order: 'ASC' | 'DESC',
  skip: number,
  take: number,
): WalkStart | null {
  let through = 0;
  for (const { second, targets } of inWalkOrder(seconds, order)) {
    through += targets;
    if (through > skip) return walkInSecond(second, targets, through, order, skip, take);
  }
  return null;
}

/**
 * The first and last seconds (ascending) that hold the `take` targets from `skip` places from the
 * `order` end: a walk across them crosses every target created in between, listed or not.
 */
export function spanAmong(
  seconds: SecondCount[],
  order: 'ASC' | 'DESC',
  skip: number,
  take: number,
): { first: bigint; last: bigint } | null {
  let through = 0;
  let start: bigint | null = null;
  let end: bigint | null = null;
  for (const { second, targets } of inWalkOrder(seconds, order)) {
    through += targets;
    if (start === null && through > skip) start = second;
    end = second;
    if (start !== null && through >= skip + take) break;
  }
  if (start === null || end === null) return null;
  return start < end ? { first: start, last: end } : { first: end, last: start };
}

function inWalkOrder(seconds: SecondCount[], order: 'ASC' | 'DESC'): SecondCount[] {
  return order === 'ASC' ? seconds : [...seconds].reverse();
}

/**
 * Last-call bounds (inclusive to the millisecond; either may be absent) split on whole buckets of
 * `bucketMs`: the whole buckets inside them, [from, to) in milliseconds (possibly infinite, empty
 * when from equals to), and the parts of the bounds' own buckets inside them, read from the targets.
 */
export function bucketsOfBounds(
  from: Date | undefined,
  to: Date | undefined,
  bucketMs: number,
): { whole: [number, number]; parts: [number, number][] } {
  const fromMs = from ? from.getTime() : -Infinity;
  // The bounds end one millisecond after `to`.
  const endMs = to ? to.getTime() + 1 : Infinity;
  const wholeFrom = Math.ceil(fromMs / bucketMs) * bucketMs;
  const wholeTo = Math.floor(endMs / bucketMs) * bucketMs;
  // Both bounds in one bucket, or in two adjacent ones: no whole bucket between them.
  if (wholeFrom >= wholeTo)
    return { whole: [wholeFrom, wholeFrom], parts: nonEmpty([[fromMs, endMs]]) };
  return {
    whole: [wholeFrom, wholeTo],
    parts: nonEmpty([
      [fromMs, wholeFrom],
      [wholeTo, endMs],
    ]),
  };
}

function nonEmpty(ranges: [number, number][]): [number, number][] {
  return ranges.filter(([lo, hi]) => lo < hi);
}
