import fc from 'fast-check';
import {
  DEFAULT_POLICY,
  type CompliancePolicy,
} from '../../compliance/domain/compliance-policy.js';
import { STATE_RULE_PACK, stateRulesFor } from '../../compliance/domain/state-rules.js';
import type { WeekSchedule } from '../../../common/schedule/week-schedule.js';
import { wallTime } from './calling-window.js';
import { decideCall, type CallingDecision, type CallingRulesInput } from './calling-rules.js';

const LA = 'America/Los_Angeles';
const NY = 'America/New_York';
const CHICAGO = 'America/Chicago';
const HOUR = 3600 * 1000;
const florida = stateRulesFor('Florida', new Date('2026-11-26T12:00:00Z'));

function input(overrides: Partial<CallingRulesInput> & { at: string }): CallingRulesInput {
  const { at, ...rest } = overrides;
  return {
    now: new Date(at),
    callingWindow: null,
    operatingHours: null,
    policy: DEFAULT_POLICY,
    recipient: { zones: [NY], stateRules: [] },
    recentCalls: [],
    doNotCallSince: null,
    ...rest,
  };
}

const recipient = (zones: string[], stateRules = [] as typeof florida) => ({
  zones,
  stateRules,
});
const policy = (p: Partial<CompliancePolicy>): CompliancePolicy => ({ ...DEFAULT_POLICY, ...p });

describe('decideCall', () => {
  it('places a call when every rule allows it', () => {
    expect(decideCall(input({ at: '2026-11-26T17:00:00Z' }))).toEqual({ kind: 'call' });
  });

  it('defers to 08:00 in the recipient zone before the quiet hours end, naming zone and local time', () => {
    // 14:12 UTC is 06:12 in Los Angeles (PST, UTC-8).
    const decision = decideCall(input({ at: '2026-11-26T14:12:00Z', recipient: recipient([LA]) }));
    expect(decision).toEqual({
      kind: 'defer',
      until: new Date('2026-11-26T16:00:00Z'),
      rule: 'quiet_hours',
      reason: 'quiet hours: 06:12 in America/Los_Angeles, calls from 08:00',
      zone: LA,
      localTime: '2026-11-26 06:12',
    });
  });

  it('defers to the next morning after 21:00 local', () => {
    // 02:30 UTC on the 27th is 21:30 on the 26th in New York (EST, UTC-5).
    const decision = decideCall(input({ at: '2026-11-27T02:30:00Z' }));
    expect(decision).toMatchObject({
      kind: 'defer',
      until: new Date('2026-11-27T13:00:00Z'),
      rule: 'quiet_hours',
      reason: 'quiet hours: 21:30 in America/New_York, calls from 08:00',
    });
  });

  it('waits for the later opening of two zones', () => {
    // 13:30 UTC: 08:30 in New York, 07:30 in Chicago: Chicago opens at 14:00 UTC.
    const decision = decideCall(
      input({ at: '2026-11-26T13:30:00Z', recipient: recipient([NY, CHICAGO]) }),
    );
    expect(decision).toMatchObject({
      kind: 'defer',
      until: new Date('2026-11-26T14:00:00Z'),
      rule: 'quiet_hours',
      zone: CHICAGO,
      reason: 'quiet hours: 07:30 in America/Chicago, calls from 08:00',
    });
    // And closes with the earlier close: 21:00 in New York is 02:00 UTC, while Chicago is at 20:00.
    expect(
      decideCall(input({ at: '2026-11-27T02:10:00Z', recipient: recipient([NY, CHICAGO]) })),
    ).toMatchObject({ kind: 'defer', until: new Date('2026-11-27T14:00:00Z'), zone: NY });
  });

  it('follows DST in the recipient zone: 08:00 local is 15:00 UTC before the change, 16:00 after', () => {
    // 2026-11-01 is the day US clocks fall back (02:00 PDT -> 01:00 PST).
    const before = decideCall(input({ at: '2026-10-31T12:00:00Z', recipient: recipient([LA]) }));
    expect(before).toMatchObject({ kind: 'defer', until: new Date('2026-10-31T15:00:00Z') });
    const after = decideCall(input({ at: '2026-11-01T12:00:00Z', recipient: recipient([LA]) }));
    expect(after).toMatchObject({ kind: 'defer', until: new Date('2026-11-01T16:00:00Z') });
    // Spring forward, 2026-03-08: 08:00 PDT is 15:00 UTC.
    const spring = decideCall(input({ at: '2026-03-08T12:00:00Z', recipient: recipient([LA]) }));
    expect(spring).toMatchObject({ kind: 'defer', until: new Date('2026-03-08T15:00:00Z') });
  });

  it('applies a state rule: Florida allows calls until 20:00', () => {
    // 01:15 UTC on the 27th is 20:15 on the 26th in New York (Florida's east coast).
    const decision = decideCall(
      input({ at: '2026-11-27T01:15:00Z', recipient: recipient([NY], florida) }),
    );
    expect(decision).toEqual({
      kind: 'defer',
      until: new Date('2026-11-27T13:00:00Z'),
      rule: 'state_hours',
      reason: 'Florida: 20:15 in America/New_York, calls 08:00-20:00 (FL-501.616)',
      zone: NY,
      localTime: '2026-11-26 20:15',
    });
    // Without the state rule the TCPA's 21:00 holds: the call goes.
    expect(decideCall(input({ at: '2026-11-27T01:15:00Z' }))).toEqual({ kind: 'call' });
  });

  it("counts Florida's 3 calls in 24 h and waits for the oldest to leave the window", () => {
    const recentCalls = [
      '2026-11-26T14:00:00Z',
      '2026-11-26T15:00:00Z',
      '2026-11-26T16:00:00Z',
    ].map((c) => new Date(c));
    const decision = decideCall(
      input({ at: '2026-11-26T17:00:00Z', recipient: recipient([NY], florida), recentCalls }),
    );
    expect(decision).toEqual({
      kind: 'defer',
      until: new Date('2026-11-27T14:00:00Z'),
      rule: 'state_limit',
      reason: 'Florida: 3 calls in 24 h, next at 2026-11-27 14:00 UTC (FL-501.616)',
      zone: null,
      localTime: null,
    });
    // Two calls: the third may go.
    expect(
      decideCall(
        input({
          at: '2026-11-26T17:00:00Z',
          recipient: recipient([NY], florida),
          recentCalls: recentCalls.slice(1),
        }),
      ),
    ).toEqual({ kind: 'call' });
  });

  it("caps calls per number across the organization's campaigns, per 24 h and per 7 days", () => {
    const capped = policy({ maxCallsPerNumber: { per24h: 2, per7d: 3 } });
    const day = decideCall(
      input({
        at: '2026-11-26T17:00:00Z',
        policy: capped,
        recentCalls: [new Date('2026-11-26T15:00:00Z'), new Date('2026-11-26T16:00:00Z')],
      }),
    );
    expect(day).toMatchObject({
      kind: 'defer',
      until: new Date('2026-11-27T15:00:00Z'),
      rule: 'organization_limit',
      reason: 'organization limit: 2 calls per number in 24 h, next at 2026-11-27 15:00 UTC',
    });
    const week = decideCall(
      input({
        at: '2026-11-26T17:00:00Z',
        policy: capped,
        recentCalls: ['2026-11-20T15:00:00Z', '2026-11-22T15:00:00Z', '2026-11-25T15:00:00Z'].map(
          (c) => new Date(c),
        ),
      }),
    );
    expect(week).toMatchObject({
      kind: 'defer',
      until: new Date('2026-11-27T15:00:00Z'),
      reason: 'organization limit: 3 calls per number in 7 days, next at 2026-11-27 15:00 UTC',
    });
  });

  it('skips a restricted date in the recipient zone, then waits for the quiet hours', () => {
    const holidays = policy({ restrictedDates: [{ date: '2026-12-25', reason: 'Christmas Day' }] });
    // 15:00 UTC on the 25th: 10:00 in New York, 07:00 in Los Angeles.
    const decision = decideCall(
      input({ at: '2026-12-25T15:00:00Z', policy: holidays, recipient: recipient([NY]) }),
    );
    expect(decision).toEqual({
      kind: 'defer',
      // The 26th starts at 05:00 UTC in New York; quiet hours then hold until 08:00 there.
      until: new Date('2026-12-26T13:00:00Z'),
      rule: 'restricted_date',
      reason: 'restricted date 2026-12-25: Christmas Day (in America/New_York)',
      zone: NY,
      localTime: '2026-12-25 10:00',
    });
    // 04:30 UTC on the 26th is 20:30 on the 25th in Los Angeles: inside the quiet hours, but the
    // restricted date holds the call until the 26th's 08:00 there.
    expect(
      decideCall(
        input({ at: '2026-12-26T04:30:00Z', policy: holidays, recipient: recipient([LA]) }),
      ),
    ).toMatchObject({
      kind: 'defer',
      rule: 'restricted_date',
      until: new Date('2026-12-26T16:00:00Z'),
    });
  });

  it('refuses a number on the do-not-call list whatever the hour', () => {
    expect(
      decideCall(
        input({ at: '2026-11-26T17:00:00Z', doNotCallSince: new Date('2026-11-02T14:05:00Z') }),
      ),
    ).toEqual({
      kind: 'refuse',
      rule: 'do_not_call',
      reason: 'on the do-not-call list since 2026-11-02 14:05 UTC',
      zone: null,
      localTime: null,
    });
  });

  it('refuses when nothing allows a call within 14 days', () => {
    const nights: WeekSchedule = { tz: NY };
    for (const day of ['monday', 'tuesday', 'wednesday', 'thursday', 'friday'] as const) {
      nights[day] = [{ start: '22:00', end: '23:00' }];
    }
    const decision = decideCall(input({ at: '2026-11-26T17:00:00Z', callingWindow: nights }));
    expect(decision).toMatchObject({ kind: 'refuse', rule: 'calling_window' });
    // Fourteen restricted days in a row: the first allowed day is past the horizon.
    const dates = Array.from({ length: 15 }, (_, i) => ({
      date: new Date(Date.UTC(2026, 11, 20 + i)).toISOString().slice(0, 10),
      reason: 'closed',
    }));
    expect(
      decideCall(input({ at: '2026-12-20T17:00:00Z', policy: policy({ restrictedDates: dates }) })),
    ).toEqual({
      kind: 'refuse',
      rule: 'restricted_date',
      reason:
        'restricted date 2026-12-20: closed (in America/New_York); no time within 14 days allows a call',
      zone: NY,
      localTime: '2026-12-20 12:00',
    });
  });

  it('combines the campaign window with the quiet hours: both must be open', () => {
    // The campaign calls 06:00-10:00 New York time; the recipient is in Los Angeles.
    const early: WeekSchedule = { tz: NY };
    for (const day of ['monday', 'tuesday', 'wednesday', 'thursday', 'friday'] as const) {
      early[day] = [{ start: '06:00', end: '12:00' }];
    }
    // Thursday 12:00 UTC: 07:00 in New York (window open), 04:00 in Los Angeles (quiet).
    const decision = decideCall(
      input({ at: '2026-11-26T12:00:00Z', callingWindow: early, recipient: recipient([LA]) }),
    );
    // 08:00 in Los Angeles is 16:00 UTC = 11:00 New York, inside the window.
    expect(decision).toMatchObject({ kind: 'defer', until: new Date('2026-11-26T16:00:00Z') });
  });

  it('turns quiet hours off only when the policy says so', () => {
    expect(
      decideCall(
        input({
          at: '2026-11-26T08:00:00Z',
          policy: policy({ quietHours: null }),
          recipient: recipient([LA]),
        }),
      ),
    ).toEqual({ kind: 'call' });
  });

  it("never places a call outside 08:00-21:00 local in any of the target's zones (property)", () => {
    const zones = fc.constantFrom(
      NY,
      CHICAGO,
      LA,
      'America/Denver',
      'America/Phoenix',
      'America/Anchorage',
      'Pacific/Honolulu',
      'Europe/London',
      'Australia/Sydney',
      'Asia/Kolkata',
    );
    const inQuietHours = (at: Date, zone: string) => {
      const hhmm = wallTime(at, zone).slice(11);
      return hhmm >= '08:00' && hhmm < '21:00';
    };
    fc.assert(
      fc.property(
        fc.date({
          min: new Date('2026-01-01T00:00:00Z'),
          max: new Date('2027-12-31T00:00:00Z'),
          noInvalidDate: true,
        }),
        fc.uniqueArray(zones, { minLength: 1, maxLength: 3 }),
        fc.boolean(),
        fc.array(fc.integer({ min: 1, max: 7 * 24 * 60 }), { maxLength: 6 }),
        (now, targetZones, stateRules, minutesAgo) => {
          const decision: CallingDecision = decideCall(
            input({
              at: now.toISOString(),
              recipient: recipient(targetZones, stateRules ? florida : []),
              policy: policy({ maxCallsPerNumber: { per24h: 2, per7d: null } }),
              recentCalls: minutesAgo.map((m) => new Date(now.getTime() - m * 60_000)),
            }),
          );
          if (decision.kind === 'call') return targetZones.every((z) => inQuietHours(now, z));
          if (decision.kind === 'defer') {
            return (
              decision.until > now &&
              decision.until.getTime() - now.getTime() <= 14 * 24 * HOUR &&
              targetZones.every((z) => inQuietHours(decision.until, z))
            );
          }
          // Zones half a day apart can share no hour of 08:00-21:00: refused, never placed.
          return decision.kind === 'refuse';
        },
      ),
      { numRuns: 200, seed: 29 },
    );
  });
});

describe('state rule pack', () => {
  it('pins Florida, Oklahoma and Maryland: 08:00-20:00 and 3 calls in 24 h, with citations', () => {
    expect(
      STATE_RULE_PACK.rules.map((r) => [r.state, r.effective, r.maxCallsPer24h, r.hours?.sunday]),
    ).toEqual([
      ['FL', '2021-07-01', 3, [{ start: '08:00', end: '20:00' }]],
      ['OK', '2022-11-01', 3, [{ start: '08:00', end: '20:00' }]],
      ['MD', '2024-01-01', 3, [{ start: '08:00', end: '20:00' }]],
    ]);
    for (const rule of STATE_RULE_PACK.rules) expect(rule.citation.url).toMatch(/^https?:\/\//);
  });

  it("finds a number's state from the geocoder's words, and only rules already in effect", () => {
    expect(stateRulesFor('Miami, FL', new Date('2026-01-01')).map((r) => r.id)).toEqual([
      'FL-501.616',
    ]);
    expect(stateRulesFor('Oklahoma', new Date('2022-10-31'))).toEqual([]);
    expect(stateRulesFor('Oklahoma', new Date('2022-11-01')).map((r) => r.state)).toEqual(['OK']);
    expect(stateRulesFor('New York, NY', new Date('2026-01-01'))).toEqual([]);
    expect(stateRulesFor(null, new Date('2026-01-01'))).toEqual([]);
  });
});
