import {
  advancesStatus,
  followsWithText,
  renderTextTemplate,
  replyKeyword,
  simulatedReply,
  simulatedTextOutcome,
} from './message.js';
import { decideText } from './text-rules.js';
import { DEFAULT_POLICY } from '../../compliance/domain/compliance-policy.js';

describe('renderTextTemplate', () => {
  it('fills input_data placeholders as the TwiML template does, without escaping', () => {
    expect(
      renderTextTemplate('Hi {{input_data.first_name}} & {{ input_data.visit.day }}: {{other}}', {
        inputData: { first_name: "O'Brien <Ann>", visit: { day: 'Monday' } },
      }),
    ).toBe("Hi O'Brien <Ann> & Monday: {{other}}");
    expect(
      renderTextTemplate('{{input_data.missing}}|{{input_data.list}}', {
        inputData: { list: [1] },
      }),
    ).toBe('|');
  });

  it("fills patient placeholders from the target's patient (an imported one has no input data)", () => {
    expect(
      renderTextTemplate(
        'Hi {{patient.first_name}} {{ patient.last_name }}, MRN {{patient.external_id}}',
        {
          inputData: {},
          patient: { first_name: 'Maria', last_name: 'Lopez', external_id: 'MRN-1007' },
        },
      ),
    ).toBe('Hi Maria Lopez, MRN MRN-1007');
    expect(renderTextTemplate('Hi {{patient.first_name}},', { inputData: {}, patient: null })).toBe(
      'Hi ,',
    );
  });
});

describe('followsWithText', () => {
  const setting = {
    provider_connection_id: null,
    on_categories: ['VOICEMAIL', 'NO_RESPONSE'],
    template: 'x',
    after: 'each_attempt' as const,
  };
  it.each([
    ['a listed category, retry next', setting, 'Scheduled', 'VOICEMAIL', false, true],
    ['a listed category, final', setting, 'Finished', 'NO_RESPONSE', false, true],
    ['a category not listed', setting, 'Finished', 'GOOD', false, false],
    ['no category', setting, 'Finished', null, false, false],
    ['a lost call', setting, 'To review', 'NO_RESPONSE', true, false],
    ['off', null, 'Finished', 'VOICEMAIL', false, false],
    [
      'last_attempt, retry next',
      { ...setting, after: 'last_attempt' as const },
      'Scheduled',
      'VOICEMAIL',
      false,
      false,
    ],
    [
      'last_attempt, final',
      { ...setting, after: 'last_attempt' as const },
      'Finished',
      'VOICEMAIL',
      false,
      true,
    ],
  ])('%s', (_name, s, status, category, lost, expected) => {
    expect(followsWithText(s, { status, category }, lost)).toBe(expected);
  });
});

describe('the simulator texts', () => {
  it.each([
    ['+15551230000', 'delivered', null],
    ['+15555900000', 'undelivered', '30003'],
    ['+15555910001', 'failed', '30006'],
    ['+1 555 92 0000', 'delivered', null],
  ])('%s is %s', (to, status, errorCode) => {
    expect(simulatedTextOutcome(to)).toEqual({ status, errorCode });
  });
  it('replies STOP or in words by the two digits before the last four', () => {
    expect([simulatedReply('+15555920000'), simulatedReply('+15555930000')]).toEqual([
      'STOP',
      'Thanks, I will call you back tomorrow.',
    ]);
    expect(simulatedReply('+15551230000')).toBeNull();
  });
});

describe('replyKeyword', () => {
  it.each([
    ['STOP', 'opt_out'],
    [' stop ', 'opt_out'],
    ['Unsubscribe.', 'opt_out'],
    ['stopall', 'opt_out'],
    ['CANCEL', 'opt_out'],
    ['end', 'opt_out'],
    ['Quit', 'opt_out'],
    ['revoke', 'opt_out'],
    ['OPTOUT', 'opt_out'],
    ['start', 'opt_in'],
    ['UNSTOP', 'opt_in'],
    ['help', 'help'],
    ['please stop calling', null],
    ['Thanks!', null],
  ])('%j is %s', (body, keyword) => {
    expect(replyKeyword(body)).toBe(keyword);
  });
});

describe('advancesStatus', () => {
  it.each([
    ['queued', 'sent', true],
    ['sent', 'delivered', true],
    ['queued', 'failed', true],
    ['delivered', 'sent', false],
    ['undelivered', 'delivered', false],
    ['sent', 'sent', false],
  ] as const)('%s -> %s: %s', (from, to, expected) => {
    expect(advancesStatus(from, to)).toBe(expected);
  });
});

describe('decideText', () => {
  const policy = { ...DEFAULT_POLICY, quietHours: { start: '08:00', end: '21:00' } };
  it('sends in the afternoon, holds in the small hours until 08:00, never to a listed number', () => {
    const afternoon = new Date('2026-06-01T18:00:00Z'); // 14:00 in New York
    expect(
      decideText({ now: afternoon, policy, zones: ['America/New_York'], doNotCallSince: null }),
    ).toEqual({ kind: 'call' });
    const night = new Date('2026-06-01T07:00:00Z'); // 03:00 in New York
    expect(
      decideText({ now: night, policy, zones: ['America/New_York'], doNotCallSince: null }),
    ).toEqual(
      expect.objectContaining({
        kind: 'defer',
        rule: 'quiet_hours',
        until: new Date('2026-06-01T12:00:00Z'),
      }),
    );
    expect(
      decideText({
        now: afternoon,
        policy,
        zones: ['America/New_York'],
        doNotCallSince: new Date('2026-05-01T00:00:00Z'),
      }),
    ).toEqual(expect.objectContaining({ kind: 'refuse', rule: 'do_not_call' }));
  });
  it('does not count calls against the per-number caps', () => {
    const capped = { ...policy, maxCallsPerNumber: { per24h: 0, per7d: 0 } };
    expect(
      decideText({
        now: new Date('2026-06-01T18:00:00Z'),
        policy: capped,
        zones: ['America/New_York'],
        doNotCallSince: null,
      }),
    ).toEqual({ kind: 'call' });
  });
});
