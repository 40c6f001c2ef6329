import {
  actorWords,
  decisionReasonWords,
  decisionWords,
  previewText,
  ruleWords,
  statusSentence,
  timelineWords,
  waitingWords,
} from '../../console/src/words.js';

const event = (
  kind: string,
  status: string | null,
  reason: string,
  data: Record<string, unknown> = {},
) => ({ kind, status, reason, data });

describe('console sentences (timeline, decisions, actors, names)', () => {
  it('tells timeline entries as sentences from their kind, status and data, not the service’s codes', () => {
    expect(
      timelineWords(
        event('call_ended', 'Finished', 'finished after GOOD (attempt 1 of 2)', {
          category: 'GOOD',
          outcome: 'Call completed',
        }),
      ),
    ).toBe('Call ended: good call. Done: no more calls.');
    expect(
      timelineWords(
        event('call_ended', 'To review', 'call ended: HUMAN_ONLY', { category: 'HUMAN_ONLY' }),
      ),
    ).toBe('Call ended: needs a person. It now needs a person: see the review queue.');
    expect(
      timelineWords(event('call_started', 'In Progress', 'call placed: attempt 2', { attempt: 2 })),
    ).toBe('Call placed (attempt 2).');
    expect(
      timelineWords(
        event('notification', null, 'call.ended notification recorded (no webhook_url)', {
          delivery_status: null,
        }),
      ),
    ).toBe('Nothing was sent to your systems: this campaign has no webhook URL.');
    expect(
      timelineWords(
        event('notification', null, 'call.ended notification delivered', {
          delivery_status: 'delivered',
        }),
      ),
    ).toBe('Your systems were notified (delivered).');
    expect(
      timelineWords(
        event('status_changed', 'Finished', 'reviewed: marked done', { from: 'To review' }),
      ),
    ).toBe('Reviewed by a person: marked done.');
    expect(
      timelineWords(
        event('status_changed', 'Scheduled', 'reviewed: re-queued for one more attempt', {
          from: 'To review',
        }),
      ),
    ).toBe('Reviewed by a person: to be called again.');
    expect(
      timelineWords(
        event('added', 'Pending', 'added, not launched: trigger calls or add with launch=true'),
      ),
    ).toBe('Added to the campaign; not started until its calls are triggered.');
    expect(
      timelineWords(
        event('added', 'Waiting', 'added, waiting for step intake', { step: 'intake' }),
      ),
    ).toBe('Added to the campaign; it waits for the step “intake”.');
    expect(timelineWords(event('input_edited', null, 'input data edited', { keys: ['n'] }))).toBe(
      'Its data was edited (n).',
    );
    const deferred = timelineWords(
      event('deferred', null, 'quiet hours: 06:12 in Pacific/Honolulu, calls from 08:00', {
        scheduled_time: '2026-11-28T18:00:00Z',
      }),
    );
    expect(deferred).toMatch(
      /^Its call was moved to .+: too early or too late where the person lives\.$/,
    );
    expect(deferred).not.toContain('quiet');
  });

  it('names who did something: a key or a person by their name, never by an id', () => {
    const names = new Map([['ee4141fe-0000-4000-8000-000000000000', 'EHR integration']]);
    expect(actorWords({ type: 'api_key', id: 'ee4141fe-0000-4000-8000-000000000000' }, names)).toBe(
      'the API key “EHR integration”',
    );
    expect(actorWords({ type: 'api_key', id: 'ee4141fe-0000-4000-8000-000000000001' }, names)).toBe(
      'an API key',
    );
    // An answer that names its actor (the do-not-call list) is said by that name, a person's too.
    expect(
      actorWords({
        type: 'api_key',
        id: 'ee4141fe-0000-4000-8000-000000000002',
        name: 'Front desk',
      }),
    ).toBe('the API key “Front desk”');
    expect(
      actorWords({ type: 'user', id: 'ee4141fe-0000-4000-8000-000000000003', name: 'Dana Reyes' }),
    ).toBe('Dana Reyes');
    expect(actorWords({ type: 'user', id: 'ee4141fe-0000-4000-8000-000000000003' })).toBe(
      'a person signed in',
    );
    expect(actorWords({ type: 'worker', id: null })).toBe('the service (calling on schedule)');
    expect(actorWords({ type: 'provider', id: 'CA123' })).toBe('the phone call itself');
  });

  it('says the calling rules’ decisions in words', () => {
    expect(ruleWords('quiet_hours')).toBe('Quiet hours where the person is');
    expect(ruleWords('do_not_call')).toBe('The do-not-call list');
    expect(decisionWords('refused', null)).toBe('Not called');
    expect(decisionWords('deferred', '2026-11-28T18:00:00Z')).toMatch(/^Call moved to \S/);
    expect(decisionReasonWords('quiet hours: 06:12 in America/Los_Angeles, calls from 08:00')).toBe(
      'It was 06:12 where the person is (Los Angeles time); calls start at 08:00 there.',
    );
    expect(waitingWords('quiet hours: 06:12 in Pacific/Honolulu, calls from 08:00')).toBe(
      'Too early or too late where the person lives: it is 06:12 there (Honolulu time), and calls start at 08:00 their time (your calling rules’ quiet hours).',
    );
  });

  it('explains each status', () => {
    expect(statusSentence('To review')).toMatch(/^Needs a person/);
    expect(statusSentence('Finished')).toBe('Done: no more calls.');
    expect(statusSentence('unknown')).toBe('unknown');
  });

  it('previews a message’s placeholders for a sample patient', () => {
    expect(
      previewText('Hi {{input_data.first_name}}, see you {{ input_data.appointment_date }}.'),
    ).toBe('Hi Maria, see you March 14.');
    expect(previewText('Your code: {{input_data.member_id}}')).toBe('Your code: [member id]');
    expect(
      previewText(
        'Hi {{patient.first_name}} {{ patient.last_name }} ({{patient.external_id}}, born {{patient.date_of_birth}}); {{patient.extra_data.pcp}}',
      ),
    ).toBe('Hi Maria Lopez (MRN-1007, born 1962-03-14); [pcp]');
    expect(previewText('Hi {{first_name}}')).toBe('Hi {{first_name}}');
  });
});
