import { Injectable } from '@nestjs/common';
import { randomUUID } from 'crypto';
import { CallOutcome } from '../domain/call-outcome';
import { CallProvider, CallResult, PlaceCallRequest } from '../application/ports/call-provider';

/** The simulator's table: the last four digits of the dialled number pick the outcome. */
export const SIMULATED_OUTCOMES: Record<string, { outcome: CallOutcome; endedReason: string }> = {
  '0000': { outcome: 'NO_RESPONSE', endedReason: 'customer-did-not-answer' },
  '0001': { outcome: 'VOICEMAIL', endedReason: 'voicemail' },
  '0002': { outcome: 'DISCONNECTED', endedReason: 'failed-to-connect' },
  '0003': { outcome: 'TECHNICAL_FAILURE', endedReason: 'provider-error' },
  '0004': { outcome: 'HUMAN_ONLY', endedReason: 'assistant-forwarded-call' },
};
const GOOD = { outcome: 'GOOD' as const, endedReason: 'assistant-ended-call' };

export function simulatedOutcome(to: string): { outcome: CallOutcome; endedReason: string } {
  return SIMULATED_OUTCOMES[to.replace(/\D/g, '').slice(-4)] ?? GOOD;
}

/**
 * `CALL_PROVIDER=simulated`: no telephony, a call "lasts" `seconds` and ends as the table says. Good
 * calls come back with a transcript, categorization, agent data, post-call data and QA, like a real one.
 */
@Injectable()
export class SimulatedCallProvider extends CallProvider {
  readonly name = 'simulated';

  constructor(private readonly seconds: number) {
    super();
  }

  async placeCall(request: PlaceCallRequest): Promise<CallResult> {
    const { outcome, endedReason } = simulatedOutcome(request.to);
    const connected = outcome === 'GOOD' || outcome === 'HUMAN_ONLY';
    const duration =
      outcome === 'DISCONNECTED' || outcome === 'TECHNICAL_FAILURE' ? 0 : this.seconds;
    if (duration > 0) await new Promise((resolve) => setTimeout(resolve, duration * 1000));
    const agentData = {
      agent: 'simulated-agent',
      input_data: request.inputData,
      attempt: request.attempt,
    };
    if (outcome === 'TECHNICAL_FAILURE') throw new Error('simulated provider error');
    const base: CallResult = {
      outcome,
      endedReason,
      durationSeconds: duration,
      providerCallId: `sim-${randomUUID()}`,
      transcripts: [],
      agentData,
      postCallData: null,
      qa: null,
      recordingUrls: [],
      outputData: {},
    };
    if (!connected) return base;
    const transcripts = [
      {
        role: 'assistant',
        message: 'Hello, this is an automated assistant calling on behalf of your provider.',
      },
      {
        role: 'user',
        message:
          outcome === 'GOOD' ? 'Yes, that works for me.' : 'I would rather talk to a person.',
      },
      {
        role: 'assistant',
        message:
          outcome === 'GOOD'
            ? 'Thank you, everything is confirmed. Goodbye.'
            : 'Understood, a colleague will call you back.',
      },
    ];
    if (outcome === 'HUMAN_ONLY') {
      return { ...base, transcripts, postCallData: { summary: 'The callee asked for a person.' } };
    }
    return {
      ...base,
      transcripts,
      postCallData: { summary: 'The callee confirmed the information.', confirmed: true },
      qa: {
        score: 100,
        passed: true,
        checks: { greeting: true, identity_verified: true, closing: true },
      },
      recordingUrls: [`https://recordings.invalid/simulated/${request.callLogId}.wav`],
      outputData: { call_summary: 'The callee confirmed the information.', confirmed: true },
    };
  }
}
