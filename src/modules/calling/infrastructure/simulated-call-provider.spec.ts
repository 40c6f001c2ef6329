import { SimulatedCallProvider, simulatedOutcome } from './simulated-call-provider';

const request = (to: string) => ({
  callLogId: 7,
  targetId: 't',
  campaignId: 'c',
  campaignType: 'patient',
  attempt: 1,
  to,
  from: 'DeprecatedLocalTest',
  inputData: { a: 1 },
});

describe('simulated call provider', () => {
  it.each([
    ['+15550100000', 'NO_RESPONSE', 'customer-did-not-answer'],
    ['+15550100001', 'VOICEMAIL', 'voicemail'],
    ['+15550100002', 'DISCONNECTED', 'failed-to-connect'],
    ['+15550100003', 'TECHNICAL_FAILURE', 'provider-error'],
    ['+15550100004', 'HUMAN_ONLY', 'assistant-forwarded-call'],
    ['+15550100005', 'GOOD', 'assistant-ended-call'],
    ['+1 (555) 010-0001', 'VOICEMAIL', 'voicemail'],
  ])('%s: %s', (to, outcome, endedReason) => {
    expect(simulatedOutcome(to)).toEqual({ outcome, endedReason });
  });

  it('a good call comes back with transcript, post-call data, QA, recording and output', async () => {
    const result = await new SimulatedCallProvider(0).placeCall(request('+15550101234'));
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

  it('0003 is a provider error (the engine records a technical failure)', async () => {
    await expect(new SimulatedCallProvider(0).placeCall(request('+15550100003'))).rejects.toThrow(
      'simulated provider error',
    );
  });

  it('a no-answer has no transcript', async () => {
    const result = await new SimulatedCallProvider(0).placeCall(request('+15550100000'));
    expect(result).toMatchObject({
      outcome: 'NO_RESPONSE',
      transcripts: [],
      qa: null,
      postCallData: null,
    });
  });
});
