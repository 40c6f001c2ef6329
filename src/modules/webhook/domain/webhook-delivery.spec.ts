import { callFinishedPayload, outcomeOf, parseRetrySchedule } from './webhook-delivery.js';

describe('parseRetrySchedule', () => {
  it('reads the default schedule (about a day in 7 retries)', () => {
    const schedule = parseRetrySchedule('5s,5m,30m,2h,5h,10h,10h');
    expect(schedule).toEqual([
      5000, 300_000, 1_800_000, 7_200_000, 18_000_000, 36_000_000, 36_000_000,
    ]);
    expect(schedule.reduce((a, b) => a + b) / 3_600_000).toBeCloseTo(27.6, 1);
  });

  it('takes ms, s, m, h, d, bare seconds, spaces, and an empty schedule (a single attempt)', () => {
    expect(parseRetrySchedule(' 250ms, 1s ,2, 1m,1h,1d')).toEqual([
      250, 1000, 2000, 60_000, 3_600_000, 86_400_000,
    ]);
    expect(parseRetrySchedule('')).toEqual([]);
  });

  it('refuses what it cannot read', () => {
    expect(() => parseRetrySchedule('5s,soon')).toThrow('cannot read "soon"');
  });
});

describe('outcomeOf', () => {
  const now = new Date('2026-01-01T00:00:00.000Z');
  const schedule = [1000, 60_000];

  it('is delivered on success whatever the attempt', () => {
    expect(outcomeOf(true, 3, schedule, now)).toEqual({ kind: 'delivered' });
  });

  it('retries after the n-th delay of the schedule, then fails after the last attempt', () => {
    expect(outcomeOf(false, 1, schedule, now)).toEqual({
      kind: 'retry',
      nextAttemptAt: new Date('2026-01-01T00:00:01.000Z'),
    });
    expect(outcomeOf(false, 2, schedule, now)).toEqual({
      kind: 'retry',
      nextAttemptAt: new Date('2026-01-01T00:01:00.000Z'),
    });
    expect(outcomeOf(false, 3, schedule, now)).toEqual({ kind: 'failed' });
  });
});

describe('callFinishedPayload', () => {
  it('is flat, snake_case and carries no personal data', () => {
    expect(
      callFinishedPayload({
        organizationId: 'org',
        campaignId: 'c',
        targetId: 't',
        callLogId: 12,
        attempt: 2,
        maxAttempts: 3,
        nextAttemptScheduled: new Date('2026-01-01T10:00:00Z'),
        status: 'Scheduled',
        resolution: 'unsuccessful',
        category: 'VOICEMAIL',
        subcategory: null,
      }),
    ).toEqual({
      type: 'target.call_finished',
      campaign_id: 'c',
      target_id: 't',
      call_log_id: 12,
      attempt: 2,
      max_attempts: 3,
      next_attempt_scheduled: '2026-01-01T10:00:00.000Z',
      status: 'Scheduled',
      resolution: 'unsuccessful',
      category: 'VOICEMAIL',
      subcategory: null,
    });
  });
});
