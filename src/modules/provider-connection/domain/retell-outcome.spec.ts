import type { CallResult } from '../../telephony/application/ports/call-provider.js';
import { retellCallResult, retellOutcome, retellVoicemailSubcategory } from './retell-outcome.js';

describe('Retell outcome table', () => {
  it.each([
    ['user_hangup', 'GOOD'],
    ['agent_hangup', 'GOOD'],
    ['voicemail_reached', 'VOICEMAIL'],
    ['dial_no_answer', 'NO_RESPONSE'],
    ['dial_busy', 'NO_RESPONSE'],
    ['inactivity', 'NO_RESPONSE'],
    ['dial_failed', 'DISCONNECTED'],
    ['invalid_destination', 'DISCONNECTED'],
    ['ivr_reached', 'DISCONNECTED'],
    ['call_transfer', 'HUMAN_ONLY'],
    ['transfer_cancelled', 'HUMAN_ONLY'],
    ['max_duration_reached', 'HUMAN_ONLY'],
    ['concurrency_limit_reached', 'TECHNICAL_FAILURE'],
    ['error_llm_websocket_open', 'TECHNICAL_FAILURE'],
    ['error_some_new_failure', 'TECHNICAL_FAILURE'],
    ['a_reason_retell_adds_later', 'HUMAN_ONLY'],
  ])('%s is %s', (reason, outcome) => {
    expect(retellOutcome(reason)).toBe(outcome);
  });

  it('counts a call the analysis found in voicemail as voicemail', () => {
    expect(retellOutcome('user_hangup', true)).toBe('VOICEMAIL');
  });

  it('maps an analyzed call: transcript, recording, custom analysis data as output data', () => {
    const result: CallResult = retellCallResult({
      call_id: 'call_abc',
      disconnection_reason: 'agent_hangup',
      duration_ms: 61_600,
      recording_url: 'https://recordings.example/retell/rec.wav',
      transcript_object: [
        { role: 'agent', content: 'Hi, this is the clinic.' },
        { role: 'user', content: 'Hello.' },
        { role: 'tool_call_invocation' },
      ],
      call_analysis: {
        call_summary: 'Appointment confirmed.',
        in_voicemail: false,
        user_sentiment: 'Positive',
        call_successful: true,
        custom_analysis_data: { confirmed: true },
      },
    });
    expect(result).toEqual({
      outcome: 'GOOD',
      endedReason: 'agent_hangup',
      durationSeconds: 62,
      transcripts: [
        { role: 'assistant', message: 'Hi, this is the clinic.' },
        { role: 'user', message: 'Hello.' },
      ],
      agentData: { provider: 'retell' },
      postCallData: {
        summary: 'Appointment confirmed.',
        user_sentiment: 'Positive',
        call_successful: true,
      },
      qa: { call_successful: true },
      recordingUrls: ['https://recordings.example/retell/rec.wav'],
      outputData: { confirmed: true },
    });
  });

  it('maps an ended call before analysis, timing from its timestamps', () => {
    expect(
      retellCallResult({
        call_id: 'c',
        disconnection_reason: 'dial_busy',
        start_timestamp: 1_000,
        end_timestamp: 4_000,
      }),
    ).toMatchObject({ outcome: 'NO_RESPONSE', durationSeconds: 3, postCallData: null, qa: null });
  });
});

describe('Retell voicemail drop', () => {
  // A call object as Retell's `call_analyzed` webhook documentation shows it (the fields we read).
  const call = (disconnection_reason: string, in_voicemail: boolean) => ({
    call_id: 'call_1',
    disconnection_reason,
    start_timestamp: 1767625200000,
    end_timestamp: 1767625230000,
    transcript_object: [{ role: 'agent', content: 'Hi Ada, this is your clinic.' }],
    call_analysis: { call_summary: 'Reached voicemail.', in_voicemail, call_successful: false },
  });

  it.each([
    ['voicemail_reached', true, 'VOICEMAIL', 'DELIVERED'],
    ['voicemail_reached', false, 'VOICEMAIL', 'DELIVERED'],
    ['agent_hangup', true, 'VOICEMAIL', 'DELIVERED'],
    // The mailbox hung up while the agent was still speaking.
    ['user_hangup', true, 'VOICEMAIL', 'NOT_DELIVERED'],
    ['user_hangup', false, 'GOOD', undefined],
    ['dial_no_answer', false, 'NO_RESPONSE', undefined],
  ])(
    '%s, in voicemail %s, with a voicemail message: %s, %s',
    (reason, inVoicemail, outcome, subcategory) => {
      const result = retellCallResult(call(reason, inVoicemail), true);
      expect(result.outcome).toBe(outcome);
      expect(result.subcategory).toBe(subcategory);
    },
  );

  it('the subcategory table', () => {
    expect(retellVoicemailSubcategory('voicemail_reached')).toBe('DELIVERED');
    expect(retellVoicemailSubcategory('user_hangup')).toBe('NOT_DELIVERED');
  });

  it('without a voicemail message the call carries no subcategory of its own', () => {
    expect(retellCallResult(call('voicemail_reached', true))).not.toHaveProperty('subcategory');
  });
});
