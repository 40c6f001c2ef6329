import {
  CallProvider,
  CallResult,
  PlaceCallRequest,
} from '../modules/calling/application/ports/call-provider';
import { CallOutcome } from '../modules/calling/domain/call-outcome';

/**
 * A call provider driven by the test: each call takes the next scripted outcome (or `fallback`), and
 * every request is recorded. `hold()` keeps calls open until `release()`, to look at in-flight state.
 */
export class ScriptedCallProvider extends CallProvider {
  readonly name = 'scripted';
  readonly calls: PlaceCallRequest[] = [];
  private readonly script: (CallOutcome | Error)[] = [];
  private gate: { promise: Promise<void>; open: () => void } | null = null;

  constructor(private readonly fallback: CallOutcome = 'GOOD') {
    super();
  }

  then(...outcomes: (CallOutcome | Error)[]): this {
    this.script.push(...outcomes);
    return this;
  }

  hold(): void {
    let open!: () => void;
    const promise = new Promise<void>((resolve) => (open = resolve));
    this.gate = { promise, open };
  }

  release(): void {
    this.gate?.open();
    this.gate = null;
  }

  async placeCall(request: PlaceCallRequest): Promise<CallResult> {
    this.calls.push(structuredClone(request));
    const next = this.script.length > 0 ? this.script.shift()! : this.fallback;
    if (this.gate) await this.gate.promise;
    if (next instanceof Error) throw next;
    const good = next === 'GOOD';
    return {
      outcome: next,
      endedReason: `scripted-${next.toLowerCase()}`,
      durationSeconds: good ? 65 : 5,
      providerCallId: `scripted-${this.calls.length}`,
      transcripts: good ? [{ role: 'assistant', message: 'hello' }] : [],
      agentData: { scripted: true },
      postCallData: good ? { summary: 'ok' } : null,
      qa: good ? { passed: true } : null,
      recordingUrls: good ? ['https://recordings.invalid/1.wav'] : [],
      outputData: good ? { confirmed: true } : {},
    };
  }
}
