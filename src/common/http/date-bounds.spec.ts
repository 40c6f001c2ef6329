import { lowerBound, upperBound } from './date-bounds';
import { pageEnvelope } from './paging';

describe('date bounds', () => {
  it('makes a date-only upper bound cover the whole day, and reads offsets', () => {
    expect(lowerBound('2026-01-31')?.toISOString()).toBe('2026-01-31T00:00:00.000Z');
    expect(upperBound('2026-01-31')?.toISOString()).toBe('2026-01-31T23:59:59.999Z');
    expect(upperBound('2026-01-31T10:00:00')?.toISOString()).toBe('2026-01-31T10:00:00.000Z');
    expect(lowerBound('2026-01-31T10:00:00+02:00')?.toISOString()).toBe('2026-01-31T08:00:00.000Z');
    expect(lowerBound(undefined)).toBeNull();
  });
});

describe('paging envelope', () => {
  it('counts pages and gives the next one, or null on the last page and on an empty result', () => {
    expect(pageEnvelope({ page: 0, limit: 10 }, 25)).toEqual({ page_count: 3, next_page: 1 });
    expect(pageEnvelope({ page: 2, limit: 10 }, 25)).toEqual({ page_count: 3, next_page: null });
    expect(pageEnvelope({ page: 0, limit: 10 }, 0)).toEqual({ page_count: 0, next_page: null });
    expect(pageEnvelope({ page: 7, limit: 10 }, 25)).toEqual({ page_count: 3, next_page: null });
  });
});
