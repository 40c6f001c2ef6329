import type { CallResult } from '../../telephony/application/ports/call-provider.js';
import {
  twilioCallResult,
  twilioDeliveredVoicemail,
  twilioOutcome,
  twilioVoicemailAction,
} from './twilio-outcome.js';

describe('Twilio outcome table', () => {
  it.each([
    ['completed', 'human', 'GOOD'],
    ['completed', null, 'GOOD'],
    ['completed', 'unknown', 'GOOD'],
    ['completed', 'machine_start', 'VOICEMAIL'],
    ['completed', 'machine_end_beep', 'VOICEMAIL'],
    ['completed', 'machine_end_silence', 'VOICEMAIL'],
    ['completed', 'machine_end_other', 'VOICEMAIL'],
    ['completed', 'fax', 'DISCONNECTED'],
    ['no-answer', null, 'NO_RESPONSE'],
    ['busy', null, 'NO_RESPONSE'],
    ['failed', null, 'DISCONNECTED'],
    ['canceled', null, 'TECHNICAL_FAILURE'],
  ])('%s answered by %s is %s', (status, answeredBy, outcome) => {
    expect(twilioOutcome(status, answeredBy)).toBe(outcome);
  });

  it.each(['queued', 'initiated', 'ringing', 'in-progress'])('%s is not final', (status) => {
    expect(twilioOutcome(status, 'human')).toBeNull();
    expect(twilioCallResult({ CallSid: 'CA1', CallStatus: status })).toBeNull();
  });

  it('turns a final status callback into a call result', () => {
    const result: CallResult | null = twilioCallResult({
      CallSid: 'CA0123',
      CallStatus: 'completed',
      AnsweredBy: 'machine_end_beep',
      CallDuration: '42',
      RecordingUrl: 'https://api.twilio.com/recordings/RE1',
    });
    expect(result).toEqual({
      outcome: 'VOICEMAIL',
      endedReason: 'completed:machine_end_beep',
      durationSeconds: 42,
      transcripts: [],
      agentData: { provider: 'twilio', call_status: 'completed', answered_by: 'machine_end_beep' },
      postCallData: null,
      qa: null,
      recordingUrls: ['https://api.twilio.com/recordings/RE1'],
      outputData: {},
    });
  });
});

describe('Twilio voicemail drop', () => {
  it.each([
    ['machine_end_beep', 'play'],
    ['machine_end_silence', 'play'],
    ['machine_end_other', 'hang-up'],
    ['machine_start', null],
    ['human', null],
    ['unknown', null],
    ['fax', null],
  ])('the AMD verdict %s: %s', (answeredBy, action) => {
    expect(twilioVoicemailAction(answeredBy)).toBe(action);
  });

  // A status callback, not the message's redirect: the message did not reach its end.
  it.each([
    ['machine_end_beep', 'NOT_DELIVERED'],
    ['machine_end_silence', 'NOT_DELIVERED'],
    ['machine_start', 'NOT_DELIVERED'],
    ['machine_end_other', 'NO_MAILBOX'],
  ])('a completed call answered by %s with a message to leave: %s', (answeredBy, subcategory) => {
    const report = { CallSid: 'CA1', CallStatus: 'completed', AnsweredBy: answeredBy };
    expect(twilioCallResult(report, true)).toMatchObject({ outcome: 'VOICEMAIL', subcategory });
    // Without a message: no subcategory of its own (the engine's default applies, as before).
    expect(twilioCallResult(report)).not.toHaveProperty('subcategory');
  });

  it('a person, or no voicemail at all, has no voicemail subcategory', () => {
    const human = { CallSid: 'CA1', CallStatus: 'completed', AnsweredBy: 'human' };
    expect(twilioCallResult(human, true)).not.toHaveProperty('subcategory');
    expect(twilioCallResult({ CallSid: 'CA1', CallStatus: 'busy' }, true)).not.toHaveProperty(
      'subcategory',
    );
  });

  it('the message played to its end is a delivered voicemail', () => {
    expect(twilioDeliveredVoicemail('machine_end_beep')).toEqual({
      outcome: 'VOICEMAIL',
      endedReason: 'voicemail-message-played',
      durationSeconds: 0,
      transcripts: [],
      agentData: {
        provider: 'twilio',
        call_status: 'in-progress',
        answered_by: 'machine_end_beep',
      },
      postCallData: null,
      qa: null,
      recordingUrls: [],
      outputData: {},
      subcategory: 'DELIVERED',
    });
  });
});
