import { lowerBound, upperBound } from './date-bounds.js';

describe('date bounds', () => {
  it('makes a date-only upper bound cover the whole day, and reads offsets', () => {
    expect(lowerBound('2026-01-31')?.toISOString()).toBe('2026-01-31T00:00:00.000Z');
    expect(upperBound('2026-01-31')?.toISOString()).toBe('2026-01-31T23:59:59.999Z');
    expect(upperBound('2026-01-31T10:00:00')?.toISOString()).toBe('2026-01-31T10:00:00.000Z');
    expect(lowerBound('2026-01-31T10:00:00+02:00')?.toISOString()).toBe('2026-01-31T08:00:00.000Z');
    expect(lowerBound(undefined)).toBeNull();
  });

  it('reads the other forms pydantic accepts: unix timestamps, `t`/`_` separators, compact offsets', () => {
    expect(lowerBound('1700000000')?.toISOString()).toBe('2023-11-14T22:13:20.000Z');
    expect(lowerBound(1700000000.5)?.toISOString()).toBe('2023-11-14T22:13:20.500Z');
    expect(lowerBound('99999999999')?.toISOString()).toBe('1973-03-03T09:46:39.999Z');
    expect(lowerBound('2024-01-01t10:00z')?.toISOString()).toBe('2024-01-01T10:00:00.000Z');
    expect(lowerBound('2024-01-01_10:00:00,5-0130')?.toISOString()).toBe(
      '2024-01-01T11:30:00.500Z',
    );
  });

  it('reads the first centuries as written (not as 1900-1999)', () => {
    expect(lowerBound('0001-01-01T00:00:00Z')?.toISOString()).toBe('0001-01-01T00:00:00.000Z');
    expect(upperBound('0099-12-31T23:59:59.999+01:00')?.toISOString()).toBe(
      '0099-12-31T22:59:59.999Z',
    );
    expect(lowerBound('0001-01-01')?.toISOString()).toBe('0001-01-01T00:00:00.000Z');
  });
});
