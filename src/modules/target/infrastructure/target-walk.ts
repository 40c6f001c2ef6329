/**
 * Where a target page's index walk starts, from counts per stretch of creation time (the campaign's
 * position spans, or a last-call bound's matches per creation block): pure arithmetic, kept apart so it is
 * unit-tested.
 */

/** Where a page's index walk starts: a bound on created_at, a direction and how many to skip. */
export interface WalkStart {
  /** Seconds since the epoch: the bound's instant. */
  from: string;
  side: '>=' | '<';
  order: 'ASC' | 'DESC';
  skip: number;
}

/**
 * How many of a list's targets were created in a stretch of whole seconds [from, until) (seconds
 * since the epoch). Spans of a list are disjoint and ascending.
 */
export interface Span {
  from: bigint;
  until: bigint;
  targets: number;
}

/**
 * Where a walk for the target `skip` places from the `order` end starts, given the span that holds
 * it (`through` targets up to and including it from that end): the span's near edge, or its far edge
 * when the page lies in the span's far half.
 */
export function walkInSpan(
  span: Span,
  through: number,
  order: 'ASC' | 'DESC',
  skip: number,
  take: number,
): WalkStart {
  const within = skip - (through - span.targets);
  const start = span.from.toString();
  const end = span.until.toString();
  const near =
    order === 'ASC' ? { from: start, side: '>=' as const } : { from: end, side: '<' as const };
  const far =
    order === 'ASC' ? { from: end, side: '<' as const } : { from: start, side: '>=' as const };
  const fromFarEdge = span.targets - within - take;
  if (fromFarEdge >= 0 && fromFarEdge < within)
    return { ...far, order: order === 'ASC' ? 'DESC' : 'ASC', skip: fromFarEdge };
  return { ...near, order, skip: within };
}

/**
 * The walk's start for the target `skip` places from the `order` end of `spans` (ascending), by a
 * running sum; null past the end.
 */
export function startAmong(
  spans: Span[],
  order: 'ASC' | 'DESC',
  skip: number,
  take: number,
): WalkStart | null {
  let through = 0;
  for (const span of inWalkOrder(spans, order)) {
    through += span.targets;
    if (through > skip) return walkInSpan(span, through, order, skip, take);
  }
  return null;
}

/**
 * The first and last spans' stretch [from, until) holding the `take` targets from `skip` places from
 * the `order` end: a walk across it crosses every target created in between, listed or not.
 */
export function spanAmong(
  spans: Span[],
  order: 'ASC' | 'DESC',
  skip: number,
  take: number,
): { from: bigint; until: bigint } | null {
  let through = 0;
  let first: Span | null = null;
  let last: Span | null = null;
  for (const span of inWalkOrder(spans, order)) {
    through += span.targets;
    if (first === null && through > skip) first = span;
    last = span;
    if (first !== null && through >= skip + take) break;
  }
  if (first === null || last === null) return null;
  return order === 'ASC'
    ? { from: first.from, until: last.until }
    : { from: last.from, until: first.until };
}

/**
 * The span holding `second` (seconds since the epoch, fractional), if any: a bound inside it cuts it,
 * and its targets on the bound's side are counted from the targets.
 */
export function spanHolding(spans: Span[], second: number): Span | null {
  let lo = 0;
  let hi = spans.length - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    if (Number(spans[mid].until) <= second) lo = mid + 1;
    else if (Number(spans[mid].from) > second) hi = mid - 1;
    else return spans[mid];
  }
  return null;
}

/** The targets of the spans that end at or before `second`. */
export function targetsBefore(spans: Span[], second: number): number {
  let n = 0;
  for (const span of spans) {
    if (Number(span.until) > second) break;
    n += span.targets;
  }
  return n;
}

function inWalkOrder(spans: Span[], order: 'ASC' | 'DESC'): Span[] {
  return order === 'ASC' ? spans : [...spans].reverse();
}
