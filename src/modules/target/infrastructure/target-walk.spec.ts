import { spanAmong, spanHolding, startAmong, targetsBefore, walkInSpan } from './target-walk.js';

// Spans [100, 101), [101, 105) and [105, 106) hold 4, 10 and 3 targets (17 in all).
const spans = [
  { from: 100n, until: 101n, targets: 4 },
  { from: 101n, until: 105n, targets: 10 },
  { from: 105n, until: 106n, targets: 3 },
];

/** A walk's start: from a span's edge, in a direction, skipping some. */
const walk = (from: string, side: '>=' | '<', order: 'ASC' | 'DESC', skip: number) => ({
  from,
  side,
  order,
  skip,
});

describe('target walks', () => {
  describe('startAmong', () => {
    it('starts at the near edge of the span holding the target, skipping those before it there', () => {
      expect(startAmong(spans, 'ASC', 0, 2)).toEqual(walk('100', '>=', 'ASC', 0));
      expect(startAmong(spans, 'ASC', 5, 2)).toEqual(walk('101', '>=', 'ASC', 1));
      // From the end: the last span's 3, then the middle one from its far (later) edge.
      expect(startAmong(spans, 'DESC', 4, 2)).toEqual(walk('105', '<', 'DESC', 1));
    });

    it("walks a page in its span's far half from the far edge, the other way", () => {
      // Targets 12 and 13 (0-based, ascending) are the middle span's 9th and 10th: none after them.
      expect(startAmong(spans, 'ASC', 12, 2)).toEqual(walk('105', '<', 'DESC', 0));
      expect(walkInSpan(spans[1], 14, 'ASC', 11, 2)).toEqual(walk('105', '<', 'DESC', 1));
    });

    it('is null past the end', () => {
      expect(startAmong(spans, 'ASC', 17, 1)).toBeNull();
      expect(startAmong([], 'DESC', 0, 1)).toBeNull();
    });
  });

  describe('spanAmong', () => {
    it('names the stretch of the spans a page covers, ascending from either end', () => {
      expect(spanAmong(spans, 'ASC', 0, 2)).toEqual({ from: 100n, until: 101n });
      expect(spanAmong(spans, 'ASC', 3, 12)).toEqual({ from: 100n, until: 106n });
      expect(spanAmong(spans, 'DESC', 2, 2)).toEqual({ from: 101n, until: 106n });
      // A page running past the end covers up to the last span.
      expect(spanAmong(spans, 'ASC', 15, 10)).toEqual({ from: 105n, until: 106n });
      expect(spanAmong(spans, 'ASC', 17, 1)).toBeNull();
    });
  });

  describe('spanHolding and targetsBefore', () => {
    it('finds the span an instant cuts, and counts the spans that end by it', () => {
      expect([spanHolding(spans, 102.5), targetsBefore(spans, 102.5)]).toEqual([spans[1], 4]);
      expect([spanHolding(spans, 101), targetsBefore(spans, 101)]).toEqual([spans[1], 4]);
      expect([spanHolding(spans, 105.999), targetsBefore(spans, 105.999)]).toEqual([spans[2], 14]);
    });

    it('finds none before, after or between spans', () => {
      const apart = [spans[0], spans[2]];
      expect([spanHolding(apart, 99), targetsBefore(apart, 99)]).toEqual([null, 0]);
      expect([spanHolding(apart, 103), targetsBefore(apart, 103)]).toEqual([null, 4]);
      expect([spanHolding(apart, 106), targetsBefore(apart, 106)]).toEqual([null, 7]);
    });
  });
});
