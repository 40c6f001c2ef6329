import { simulatedOutcome, simulatedResult } from './simulated-call-provider.js';

const stored = (to: string) => ({
  ...simulatedOutcome(to),
  durationSeconds: 0,
  attempt: 1,
  inputData: { a: 1 },
  startedAt: '2026-01-05T15:00:00.000Z',
});

describe('simulated call provider', () => {
  it.each([
    ['+15550100000', 'NO_RESPONSE', 'customer-did-not-answer'],
    ['+15550100002', 'DISCONNECTED', 'failed-to-connect'],
    ['+15550100003', 'TECHNICAL_FAILURE', 'provider-error'],
    ['+15550100004', 'HUMAN_ONLY', 'assistant-forwarded-call'],
    ['+15550100005', 'DNC_REQUESTED', 'customer-asked-not-to-be-called'],
    ['+15550100006', 'GOOD', 'assistant-ended-call'],
  ])('%s: %s', (to, outcome, endedReason) => {
    expect(simulatedOutcome(to)).toEqual({ outcome, endedReason });
  });

  it.each([
    ['+15550100001', 'voicemail', 'DELIVERED'],
    ['+1 (555) 010-0001', 'voicemail', 'DELIVERED'],
    ['+15550100007', 'voicemail-message-cut-off', 'NOT_DELIVERED'],
    ['+15550100008', 'voicemail-no-mailbox', 'NO_MAILBOX'],
  ])('%s: a voicemail drop, %s: %s', (to, endedReason, subcategory) => {
    expect(simulatedOutcome(to)).toEqual({ outcome: 'VOICEMAIL', endedReason, subcategory });
    expect(simulatedResult(7, stored(to))).toMatchObject({
      outcome: 'VOICEMAIL',
      endedReason,
      subcategory,
      transcripts: [],
    });
  });

  it('a good call ends with transcript, post-call data, QA, recording and output', () => {
    const result = simulatedResult(7, stored('+15550101234'));
    expect(result).toMatchObject({
      outcome: 'GOOD',
      durationSeconds: 0,
      agentData: { agent: 'simulated-agent', input_data: { a: 1 }, attempt: 1 },
      postCallData: { confirmed: true },
      qa: { passed: true },
      recordingUrls: ['https://recordings.invalid/simulated/7.wav'],
      outputData: { confirmed: true },
    });
    expect(result.transcripts).toHaveLength(3);
  });

  it('a do-not-call request ends with the words that asked for it, and nothing else', () => {
    expect(simulatedResult(7, stored('+15550100005'))).toEqual({
      outcome: 'DNC_REQUESTED',
      endedReason: 'customer-asked-not-to-be-called',
      durationSeconds: 0,
      transcripts: [
        {
          role: 'assistant',
          message: 'Hello, this is an automated assistant calling on behalf of your provider.',
        },
        { role: 'user', message: 'Please do not call me again.' },
        { role: 'assistant', message: 'Understood, you will not be called again. Goodbye.' },
      ],
      agentData: { agent: 'simulated-agent', input_data: { a: 1 }, attempt: 1 },
      postCallData: { summary: 'The callee asked not to be called again.' },
      qa: null,
      recordingUrls: [],
      outputData: {},
    });
  });

  it('a no-answer and a provider error have no transcript', () => {
    for (const to of ['+15550100000', '+15550100003']) {
      expect(simulatedResult(7, stored(to))).toMatchObject({
        transcripts: [],
        qa: null,
        postCallData: null,
      });
    }
  });
});
