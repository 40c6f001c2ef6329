import { UnauthorizedError } from '../common/errors/domain-errors.js';
import {
  CallEvent,
  CallProvider,
  CallRef,
  CallResult,
  ProviderRequest,
  StartCallRequest,
} from '../modules/telephony/application/ports/call-provider.js';
import { CallOutcome } from '../modules/telephony/domain/call-outcome.js';

/** What an ended call of the scripted provider produced (good calls carry data, like a real one). */
export function scriptedResult(outcome: CallOutcome): CallResult {
  const good = outcome === 'GOOD';
  return {
    outcome,
    endedReason: `scripted-${outcome.toLowerCase()}`,
    durationSeconds: good ? 65 : 5,
    transcripts: good ? [{ role: 'assistant', message: 'hello' }] : [],
    agentData: { scripted: true },
    postCallData: good ? { summary: 'ok' } : null,
    qa: good ? { passed: true } : null,
    recordingUrls: good ? ['https://recordings.invalid/1.wav'] : [],
    outputData: good ? { confirmed: true } : {},
  };
}

/**
 * A call provider driven by the test. `startCall` records the request and answers with a call id
 * (`scripted-1`, ...) or throws the next scripted error; the test then makes events with `started`
 * and `ended` and feeds them to the ingestion, in any order, any number of times. `answer` is what
 * `getCall` says (default: cannot tell). `readEvents` accepts a JSON array of events when the
 * `x-scripted-token` header is `ok`, else 401.
 */
export class ScriptedCallProvider extends CallProvider {
  readonly name: string;
  readonly calls: StartCallRequest[] = [];
  readonly failures: Error[] = [];
  answer: (ref: CallRef) => CallEvent | null = () => null;

  constructor(name = 'scripted') {
    super();
    this.name = name;
  }

  failNext(...errors: Error[]): this {
    this.failures.push(...errors);
    return this;
  }

  async startCall(request: StartCallRequest): Promise<{ providerCallId: string }> {
    this.calls.push(structuredClone(request));
    const failure = this.failures.shift();
    if (failure) throw failure;
    return { providerCallId: `scripted-${this.calls.length}` };
  }

  async getCall(ref: CallRef): Promise<CallEvent | null> {
    return this.answer(ref);
  }

  readEvents(request: ProviderRequest): Promise<CallEvent[]> {
    if (request.headers['x-scripted-token'] !== 'ok') {
      return Promise.reject(new UnauthorizedError('bad token'));
    }
    const events = JSON.parse(request.rawBody.toString('utf8')) as CallEvent[];
    return Promise.resolve(events.map((e) => ({ ...e, at: e.at && new Date(e.at) })));
  }

  /** The provider call id of the n-th placed call (1-based), as `startCall` answered. */
  idOf(callLogId: number): string {
    const index = this.calls.findIndex((c) => c.callLogId === callLogId);
    return `scripted-${index + 1}`;
  }

  /** `at` null: a report without a time of its own (the service records its receipt time). */
  started(callLogId: number, at: Date | null = null): CallEvent {
    return this.event('started', callLogId, at);
  }

  ended(callLogId: number, outcome: CallOutcome, at: Date | null = null): CallEvent {
    return { ...this.event('ended', callLogId, at), result: scriptedResult(outcome) };
  }

  private event(kind: CallEvent['kind'], callLogId: number, at: Date | null): CallEvent {
    const id = this.idOf(callLogId);
    return { key: `${id}:${kind}`, kind, providerCallId: id, callLogId, at };
  }
}
