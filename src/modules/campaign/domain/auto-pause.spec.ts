import { autoPauseReason, autoPauseTrips } from './campaign.js';

describe('autoPauseTrips', () => {
  const setting = { window: 4, max_failure_ratio: 0.5 };

  it.each([
    // [ended, failures, trips]
    [3, 3, false], // fewer than `window` calls ended: never
    [4, 2, false], // exactly the threshold: not past it
    [4, 3, true],
    [4, 4, true],
    [4, 0, false],
  ])('%i ended, %i failed: %s', (ended, failures, trips) => {
    expect(autoPauseTrips(setting, { ended, failures })).toBe(trips);
  });

  it('is off without a setting', () => {
    expect(autoPauseTrips(null, { ended: 100, failures: 100 })).toBe(false);
  });

  it('max_failure_ratio 1 never trips (the share cannot pass 1)', () => {
    expect(autoPauseTrips({ window: 1, max_failure_ratio: 1 }, { ended: 1, failures: 1 })).toBe(
      false,
    );
  });

  it('says why in words', () => {
    expect(autoPauseReason(setting, { ended: 4, failures: 3 })).toBe(
      'auto_pause: 3 of the last 4 calls ended TECHNICAL_FAILURE (max_failure_ratio 0.5)',
    );
  });
});
