import { Injectable } from '@nestjs/common';
import { randomUUID } from 'crypto';
import { CoalescingWriter } from '../../../common/batching/coalescing-writer.js';
import { Clock } from '../../../common/clock/clock.js';
import { UnauthorizedError } from '../../../common/errors/domain-errors.js';
import {
  SimulatedCall,
  SimulatedCallStore,
  SimulatedRequest,
} from '../application/ports/simulated-call.store.js';
import {
  CallEvent,
  CallProvider,
  CallRef,
  CallResult,
  callResult,
  StartCallRequest,
} from '../../telephony/application/ports/call-provider.js';
import { CallOutcome, VoicemailSubcategory } from '../../telephony/domain/call-outcome.js';
import { fillPlaceholders } from '../../provider-connection/domain/twiml-template.js';

/** The simulator's table: the last four digits of the dialled number pick the outcome. */
export const SIMULATED_OUTCOMES: Record<
  string,
  { outcome: CallOutcome; endedReason: string; subcategory?: VoicemailSubcategory }
> = {
  '0000': { outcome: 'NO_RESPONSE', endedReason: 'customer-did-not-answer' },
  // The simulator's voicemail drops: its message played to the end, cut off, or no mailbox to leave it in.
  '0001': { outcome: 'VOICEMAIL', endedReason: 'voicemail', subcategory: 'DELIVERED' },
  '0002': { outcome: 'DISCONNECTED', endedReason: 'failed-to-connect' },
  '0003': { outcome: 'TECHNICAL_FAILURE', endedReason: 'provider-error' },
  '0004': { outcome: 'HUMAN_ONLY', endedReason: 'assistant-forwarded-call' },
  // Whatever the campaign type: a person may ask that of any call (the category depends on the type).
  '0005': { outcome: 'DNC_REQUESTED', endedReason: 'customer-asked-not-to-be-called' },
  '0007': {
    outcome: 'VOICEMAIL',
    endedReason: 'voicemail-message-cut-off',
    subcategory: 'NOT_DELIVERED',
  },
  '0008': { outcome: 'VOICEMAIL', endedReason: 'voicemail-no-mailbox', subcategory: 'NO_MAILBOX' },
};
const GOOD = { outcome: 'GOOD' as const, endedReason: 'assistant-ended-call' };

export function simulatedOutcome(to: string): (typeof SIMULATED_OUTCOMES)[string] {
  return SIMULATED_OUTCOMES[to.replace(/\D/g, '').slice(-4)] ?? GOOD;
}

export interface DueSimulatedCall {
  id: string;
  events: CallEvent[];
}

const GREETING = {
  role: 'assistant',
  message: 'Hello, this is an automated assistant calling on behalf of your provider.',
};

/** After the greeting, what the callee says and the agent answers, and the call's summary, by outcome. */
const CONVERSATIONS: Partial<
  Record<CallOutcome, { callee: string; agent: string; summary: string }>
> = {
  GOOD: {
    callee: 'Yes, that works for me.',
    agent: 'Thank you, everything is confirmed. Goodbye.',
    summary: 'The callee confirmed the information.',
  },
  HUMAN_ONLY: {
    callee: 'I would rather talk to a person.',
    agent: 'Understood, a colleague will call you back.',
    summary: 'The callee asked for a person.',
  },
  DNC_REQUESTED: {
    callee: 'Please do not call me again.',
    agent: 'Understood, you will not be called again. Goodbye.',
    summary: 'The callee asked not to be called again.',
  },
};

/** The result a simulated call ends with: good calls carry a transcript, QA, recording, like a real one. */
export function simulatedResult(callLogId: number, r: SimulatedRequest): CallResult {
  const agentData = { agent: 'simulated-agent', input_data: r.inputData, attempt: r.attempt };
  const base = callResult(r.outcome, r.endedReason, {
    durationSeconds: r.durationSeconds,
    agentData,
    ...(r.subcategory ? { subcategory: r.subcategory } : {}),
  });
  // The message left on the mailbox is the call's one turn: which message it was shows on the call.
  if (r.voicemailMessage !== undefined) {
    return { ...base, transcripts: [{ role: 'assistant', message: r.voicemailMessage }] };
  }
  const conversation = CONVERSATIONS[r.outcome];
  if (!conversation) return base;
  const { callee, agent, summary } = conversation;
  const transcripts = [
    // A copy per call: a turn redacted or edited on one result must not change the next call's.
    { ...GREETING },
    { role: 'user', message: callee },
    { role: 'assistant', message: agent },
  ];
  if (r.outcome !== 'GOOD') return { ...base, transcripts, postCallData: { summary } };
  return {
    ...base,
    transcripts,
    postCallData: { summary, confirmed: true },
    qa: {
      score: 100,
      passed: true,
      checks: { greeting: true, identity_verified: true, closing: true },
    },
    recordingUrls: [`https://recordings.invalid/simulated/${callLogId}.wav`],
    outputData: { call_summary: summary, confirmed: true },
  };
}

/**
 * `CALL_PROVIDER=simulated`: no telephony. `startCall` records the call's end in `simulated_calls`
 * (durable: it ends even if the process that placed it dies) and returns at once; when it is due,
 * `SimulatedCallDelivery` in any worker delivers `started` and `ended` through the same ingestion a
 * provider's HTTP events use. A call "lasts" `seconds` (failed connects and errors: 0) and ends as
 * the table says.
 */
@Injectable()
export class SimulatedCallProvider extends CallProvider {
  readonly name = 'simulated';
  /** Told when a call was recorded, so this process's delivery loop can look at once. */
  onCallStarted: (dueAt: Date) => void = () => undefined;
  /** Calls started together are recorded at once. */
  private readonly recorder: CoalescingWriter<SimulatedCall>;

  constructor(
    private readonly store: SimulatedCallStore,
    private readonly clock: Clock,
    private readonly seconds: number,
  ) {
    super();
    this.recorder = new CoalescingWriter((calls) => this.store.record(calls));
  }

  async startCall(request: StartCallRequest): Promise<{ providerCallId: string }> {
    const { outcome, endedReason, subcategory } = simulatedOutcome(request.to);
    const durationSeconds =
      outcome === 'DISCONNECTED' || outcome === 'TECHNICAL_FAILURE' ? 0 : this.seconds;
    const now = this.clock.now();
    const id = `sim-${randomUUID()}`;
    const dueAt = new Date(now.getTime() + durationSeconds * 1000);
    const stored: SimulatedRequest = {
      outcome,
      endedReason,
      ...(subcategory ? { subcategory } : {}),
      durationSeconds,
      attempt: request.attempt,
      inputData: request.inputData,
      ...(outcome === 'VOICEMAIL' && subcategory !== 'NO_MAILBOX' && request.voicemailMessage
        ? { voicemailMessage: fillPlaceholders(request.voicemailMessage, request) }
        : {}),
      startedAt: now.toISOString(),
    };
    await this.recorder.add({ id, callLogId: request.callLogId, dueAt, request: stored });
    this.onCallStarted(dueAt);
    return { providerCallId: id };
  }

  /** A call still in the table is running; one that is not was delivered or never accepted. */
  async getCall(ref: CallRef): Promise<CallEvent | null> {
    const row = await this.store.find(ref);
    return row ? simulatedEvent(row, 'started') : null;
  }

  readEvents(): Promise<CallEvent[]> {
    return Promise.reject(new UnauthorizedError('The simulator posts no events over HTTP'));
  }

  /**
   * Takes up to `limit` calls due at `now` for delivery, moving their due time to `retakeAt` so that
   * another worker takes them only if this one dies before `remove`.
   */
  async takeDue(now: Date, retakeAt: Date, limit: number): Promise<DueSimulatedCall[]> {
    const rows = await this.store.takeDue(now, retakeAt, limit);
    return rows.map((row) => ({
      id: row.id,
      events: [simulatedEvent(row, 'started'), simulatedEvent(row, 'ended')],
    }));
  }

  remove(ids: string[]): Promise<void> {
    return ids.length === 0 ? Promise.resolve() : this.store.remove(ids);
  }

  nextDue(): Promise<Date | null> {
    return this.store.nextDue();
  }
}

/** A recorded call's `started` event, or its `ended` one (its duration later, with its result). */
function simulatedEvent(row: SimulatedCall, kind: CallEvent['kind']): CallEvent {
  const startedAt = new Date(row.request.startedAt);
  const event: CallEvent = {
    key: `${row.id}:${kind}`,
    kind,
    providerCallId: row.id,
    callLogId: row.callLogId,
    at: startedAt,
  };
  if (kind === 'started') return event;
  return {
    ...event,
    at: new Date(startedAt.getTime() + row.request.durationSeconds * 1000),
    result: simulatedResult(row.callLogId, row.request),
  };
}
