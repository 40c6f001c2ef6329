import type { CallResult } from '../../calling/application/ports/call-provider.js';
import { twilioCallResult, twilioOutcome } from './twilio-outcome.js';

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
