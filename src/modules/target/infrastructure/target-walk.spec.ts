import { bucketsOfBounds, spanAmong, startAmong, walkInSecond } from './target-walk.js';

// Seconds 100, 101 and 105 hold 4, 10 and 3 targets (17 in all).
const seconds = [
  { second: 100n, targets: 4 },
  { second: 101n, targets: 10 },
  { second: 105n, targets: 3 },
];

/** A walk's start: from a second's edge, in a direction, skipping some. */
const walk = (from: string, side: '>=' | '<', order: 'ASC' | 'DESC', skip: number) => ({
  from,
  side,
  order,
  skip,
});

describe('target walks', () => {
  describe('startAmong', () => {
    it('starts at the near edge of the second holding the target, skipping those before it there', () => {
      expect(startAmong(seconds, 'ASC', 0, 2)).toEqual(walk('100', '>=', 'ASC', 0));
      expect(startAmong(seconds, 'ASC', 5, 2)).toEqual(walk('101', '>=', 'ASC', 1));
      // From the end: 105's 3, then 101 from its far (later) edge.
      expect(startAmong(seconds, 'DESC', 4, 2)).toEqual(walk('102', '<', 'DESC', 1));
    });

    it("walks a page in its second's far half from the far edge, the other way", () => {
      // Targets 12 and 13 (0-based, ascending) are 101's 9th and 10th: none after them there.
      expect(startAmong(seconds, 'ASC', 12, 2)).toEqual(walk('102', '<', 'DESC', 0));
      expect(walkInSecond(101n, 10, 14, 'ASC', 11, 2)).toEqual(walk('102', '<', 'DESC', 1));
    });

    it('is null past the end', () => {
      expect(startAmong(seconds, 'ASC', 17, 1)).toBeNull();
      expect(startAmong([], 'DESC', 0, 1)).toBeNull();
    });
  });

  describe('spanAmong', () => {
    it('names the first and last seconds a page covers, ascending from either end', () => {
      expect(spanAmong(seconds, 'ASC', 0, 2)).toEqual({ first: 100n, last: 100n });
      expect(spanAmong(seconds, 'ASC', 3, 12)).toEqual({ first: 100n, last: 105n });
      expect(spanAmong(seconds, 'DESC', 2, 2)).toEqual({ first: 101n, last: 105n });
      // A page running past the end covers up to the last second.
      expect(spanAmong(seconds, 'ASC', 15, 10)).toEqual({ first: 105n, last: 105n });
      expect(spanAmong(seconds, 'ASC', 17, 1)).toBeNull();
    });
  });

  describe('bucketsOfBounds', () => {
    const minute = 60_000;
    const at = (iso: string) => new Date(iso);
    const ms = (iso: string) => Date.parse(iso);

    it('splits bounds into whole minutes and the parts of their own minutes, ending a millisecond after `to`', () => {
      expect(
        bucketsOfBounds(at('2026-01-01T10:00:30.000Z'), at('2026-01-01T10:05:10.000Z'), minute),
      ).toEqual({
        whole: [ms('2026-01-01T10:01:00Z'), ms('2026-01-01T10:05:00Z')],
        parts: [
          [ms('2026-01-01T10:00:30Z'), ms('2026-01-01T10:01:00Z')],
          [ms('2026-01-01T10:05:00Z'), ms('2026-01-01T10:05:10.001Z')],
        ],
      });
    });

    it('leaves out empty parts: a bound on a minute, a missing bound', () => {
      expect(bucketsOfBounds(at('2026-01-01T10:00:00.000Z'), undefined, minute)).toEqual({
        whole: [ms('2026-01-01T10:00:00Z'), Infinity],
        parts: [],
      });
      expect(bucketsOfBounds(undefined, at('2026-01-01T10:00:59.999Z'), minute)).toEqual({
        whole: [-Infinity, ms('2026-01-01T10:01:00Z')],
        parts: [],
      });
    });

    it('has no whole minute when both bounds lie in one minute or two adjacent ones', () => {
      for (const [from, to] of [
        ['2026-01-01T10:00:10.000Z', '2026-01-01T10:00:50.000Z'],
        ['2026-01-01T10:00:10.000Z', '2026-01-01T10:01:50.000Z'],
      ]) {
        const { whole, parts } = bucketsOfBounds(at(from), at(to), minute);
        expect([whole[0] === whole[1], parts]).toEqual([true, [[ms(from), ms(to) + 1]]]);
      }
    });
  });
});
