import type { CallResult } from '../../telephony/application/ports/call-provider.js';
import { vapiCallResult, vapiOutcome, vapiVoicemailSubcategory } from './vapi-outcome.js';

describe('Vapi outcome table', () => {
  it.each([
    ['assistant-ended-call', 'GOOD'],
    ['customer-ended-call', 'GOOD'],
    ['assistant-said-end-call-phrase', 'GOOD'],
    ['voicemail', 'VOICEMAIL'],
    ['customer-did-not-answer', 'NO_RESPONSE'],
    ['customer-busy', 'NO_RESPONSE'],
    ['silence-timed-out', 'NO_RESPONSE'],
    ['twilio-failed-to-connect-call', 'DISCONNECTED'],
    ['assistant-forwarded-call', 'HUMAN_ONLY'],
    ['customer-ended-call-during-transfer', 'HUMAN_ONLY'],
    ['exceeded-max-duration', 'HUMAN_ONLY'],
    ['pipeline-error-openai-llm-failed', 'TECHNICAL_FAILURE'],
    ['call.in-progress.error-vapifault-transport-never-connected', 'TECHNICAL_FAILURE'],
    ['call.start.error-subscription-concurrency-limit-reached', 'TECHNICAL_FAILURE'],
    ['assistant-request-failed', 'TECHNICAL_FAILURE'],
    ['manually-canceled', 'TECHNICAL_FAILURE'],
    ['a-reason-vapi-adds-later', 'HUMAN_ONLY'],
  ])('%s is %s', (reason, outcome) => {
    expect(vapiOutcome(reason)).toBe(outcome);
  });

  it('maps an end-of-call report: transcript, recordings, structured data, summary, evaluation', () => {
    const result: CallResult = vapiCallResult({
      callId: 'call-1',
      endedReason: 'customer-ended-call',
      startedAt: '2026-01-05T10:00:00.000Z',
      endedAt: '2026-01-05T10:01:30.400Z',
      artifact: {
        messages: [
          { role: 'system', message: 'You are a scheduling assistant.' },
          { role: 'bot', message: 'Hello, calling about your appointment.' },
          { role: 'user', message: 'Yes, Tuesday works.' },
          { role: 'tool_calls' },
        ],
        recordingUrl: 'https://storage.vapi.ai/rec.wav',
        stereoRecordingUrl: 'https://storage.vapi.ai/rec-stereo.wav',
      },
      analysis: {
        summary: 'The patient confirmed Tuesday.',
        structuredData: { confirmed: true, day: 'Tuesday' },
        successEvaluation: 'true',
      },
    });
    expect(result).toEqual({
      outcome: 'GOOD',
      endedReason: 'customer-ended-call',
      durationSeconds: 90,
      transcripts: [
        { role: 'assistant', message: 'Hello, calling about your appointment.' },
        { role: 'user', message: 'Yes, Tuesday works.' },
      ],
      agentData: { provider: 'vapi' },
      postCallData: { summary: 'The patient confirmed Tuesday.' },
      qa: { success_evaluation: 'true' },
      recordingUrls: ['https://storage.vapi.ai/rec.wav', 'https://storage.vapi.ai/rec-stereo.wav'],
      outputData: { confirmed: true, day: 'Tuesday' },
    });
  });

  it('maps a report without artifact or analysis', () => {
    expect(vapiCallResult({ callId: 'c', endedReason: 'customer-busy' })).toMatchObject({
      outcome: 'NO_RESPONSE',
      durationSeconds: 0,
      transcripts: [],
      postCallData: null,
      qa: null,
      recordingUrls: [],
      outputData: {},
    });
  });
});

describe('Vapi voicemail drop', () => {
  // An end-of-call report as Vapi's server messages documentation shows it (the fields we read).
  const report = (endedReason: string) => ({
    callId: 'c1',
    endedReason,
    startedAt: '2026-01-05T15:00:00.000Z',
    endedAt: '2026-01-05T15:00:40.000Z',
    artifact: {
      messages: [{ role: 'bot', message: 'Hi Ada, this is your clinic. Please call us back.' }],
    },
  });

  it.each([
    ['voicemail', 'VOICEMAIL', 'DELIVERED'],
    ['customer-ended-call', 'GOOD', null],
    ['customer-did-not-answer', 'NO_RESPONSE', null],
  ])('%s with a voicemail message: %s, %s', (endedReason, outcome, subcategory) => {
    expect(vapiVoicemailSubcategory(endedReason)).toBe(subcategory);
    expect(vapiCallResult(report(endedReason), true)).toMatchObject({ outcome, subcategory });
  });

  it('without a voicemail message the report carries no subcategory of its own', () => {
    expect(vapiCallResult(report('voicemail'))).not.toHaveProperty('subcategory');
  });
});
