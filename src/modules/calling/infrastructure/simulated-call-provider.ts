import { Injectable } from '@nestjs/common';
import { randomUUID } from 'crypto';
import { DataSource } from 'typeorm';
import { CoalescingWriter } from '../../../common/batching/coalescing-writer.js';
import { Clock } from '../../../common/clock/clock.js';
import { UnauthorizedError } from '../../../common/errors/domain-errors.js';
import { sqlExecutor } from '../../../database/sql.js';
import {
  CallEvent,
  CallProvider,
  CallResult,
  StartCallRequest,
} from '../application/ports/call-provider.js';
import { CallOutcome } from '../domain/call-outcome.js';

/** The simulator's table: the last four digits of the dialled number pick the outcome. */
export const SIMULATED_OUTCOMES: Record<string, { outcome: CallOutcome; endedReason: string }> = {
  '0000': { outcome: 'NO_RESPONSE', endedReason: 'customer-did-not-answer' },
  '0001': { outcome: 'VOICEMAIL', endedReason: 'voicemail' },
  '0002': { outcome: 'DISCONNECTED', endedReason: 'failed-to-connect' },
  '0003': { outcome: 'TECHNICAL_FAILURE', endedReason: 'provider-error' },
  '0004': { outcome: 'HUMAN_ONLY', endedReason: 'assistant-forwarded-call' },
  // Whatever the campaign type: a person may ask that of any call (the category depends on the type).
  '0005': { outcome: 'DNC_REQUESTED', endedReason: 'customer-asked-not-to-be-called' },
};
const GOOD = { outcome: 'GOOD' as const, endedReason: 'assistant-ended-call' };

export function simulatedOutcome(to: string): { outcome: CallOutcome; endedReason: string } {
  return SIMULATED_OUTCOMES[to.replace(/\D/g, '').slice(-4)] ?? GOOD;
}

/** What a simulated call keeps until it ends (no phone number: only what the result needs). */
interface SimulatedRequest {
  outcome: CallOutcome;
  endedReason: string;
  durationSeconds: number;
  attempt: number;
  inputData: Record<string, unknown>;
  startedAt: string;
}

interface SimulatedCallRow {
  id: string;
  call_log_id: string;
  due_at: Date;
  request: SimulatedRequest;
}

export interface DueSimulatedCall {
  id: string;
  events: CallEvent[];
}

/** The result a simulated call ends with: good calls carry a transcript, QA, recording, like a real one. */
export function simulatedResult(callLogId: number, r: SimulatedRequest): CallResult {
  const agentData = { agent: 'simulated-agent', input_data: r.inputData, attempt: r.attempt };
  const base: CallResult = {
    outcome: r.outcome,
    endedReason: r.endedReason,
    durationSeconds: r.durationSeconds,
    transcripts: [],
    agentData,
    postCallData: null,
    qa: null,
    recordingUrls: [],
    outputData: {},
  };
  if (r.outcome === 'DNC_REQUESTED') {
    return {
      ...base,
      transcripts: [
        {
          role: 'assistant',
          message: 'Hello, this is an automated assistant calling on behalf of your provider.',
        },
        { role: 'user', message: 'Please do not call me again.' },
        {
          role: 'assistant',
          message: 'Understood, you will not be called again. Goodbye.',
        },
      ],
      postCallData: { summary: 'The callee asked not to be called again.' },
    };
  }
  if (r.outcome !== 'GOOD' && r.outcome !== 'HUMAN_ONLY') return base;
  const good = r.outcome === 'GOOD';
  const transcripts = [
    {
      role: 'assistant',
      message: 'Hello, this is an automated assistant calling on behalf of your provider.',
    },
    {
      role: 'user',
      message: good ? 'Yes, that works for me.' : 'I would rather talk to a person.',
    },
    {
      role: 'assistant',
      message: good
        ? 'Thank you, everything is confirmed. Goodbye.'
        : 'Understood, a colleague will call you back.',
    },
  ];
  if (!good)
    return { ...base, transcripts, postCallData: { summary: 'The callee asked for a person.' } };
  return {
    ...base,
    transcripts,
    postCallData: { summary: 'The callee confirmed the information.', confirmed: true },
    qa: {
      score: 100,
      passed: true,
      checks: { greeting: true, identity_verified: true, closing: true },
    },
    recordingUrls: [`https://recordings.invalid/simulated/${callLogId}.wav`],
    outputData: { call_summary: 'The callee confirmed the information.', confirmed: true },
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
  /** Calls started together are recorded in one statement. */
  private readonly recorder: CoalescingWriter<SimulatedCallRow>;

  constructor(
    private readonly dataSource: DataSource,
    private readonly clock: Clock,
    private readonly seconds: number,
  ) {
    super();
    this.recorder = new CoalescingWriter(async (rows) => {
      await sqlExecutor(this.dataSource, null).query(
        `INSERT INTO simulated_calls (id, call_log_id, due_at, request)
         SELECT * FROM unnest($1::text[], $2::bigint[], $3::timestamptz[], $4::jsonb[])`,
        [
          rows.map((r) => r.id),
          rows.map((r) => r.call_log_id),
          rows.map((r) => r.due_at),
          rows.map((r) => JSON.stringify(r.request)),
        ],
      );
    });
  }

  async startCall(request: StartCallRequest): Promise<{ providerCallId: string }> {
    const { outcome, endedReason } = simulatedOutcome(request.to);
    const durationSeconds =
      outcome === 'DISCONNECTED' || outcome === 'TECHNICAL_FAILURE' ? 0 : this.seconds;
    const now = this.clock.now();
    const id = `sim-${randomUUID()}`;
    const dueAt = new Date(now.getTime() + durationSeconds * 1000);
    const stored: SimulatedRequest = {
      outcome,
      endedReason,
      durationSeconds,
      attempt: request.attempt,
      inputData: request.inputData,
      startedAt: now.toISOString(),
    };
    await this.recorder.add({
      id,
      call_log_id: String(request.callLogId),
      due_at: dueAt,
      request: stored,
    });
    this.onCallStarted(dueAt);
    return { providerCallId: id };
  }

  /** A call still in the table is running; one that is not was delivered or never accepted. */
  async getCall(ref: {
    providerCallId: string | null;
    callLogId: number;
  }): Promise<CallEvent | null> {
    const { rows } = await sqlExecutor(this.dataSource, null).query<SimulatedCallRow>(
      `SELECT id, call_log_id, due_at, request FROM simulated_calls
        WHERE id = $1 OR call_log_id = $2 LIMIT 1`,
      [ref.providerCallId, ref.callLogId],
    );
    const row = rows[0];
    if (!row) return null;
    return {
      key: `${row.id}:started`,
      kind: 'started',
      providerCallId: row.id,
      callLogId: Number(row.call_log_id),
      at: new Date(row.request.startedAt),
    };
  }

  readEvents(): Promise<CallEvent[]> {
    return Promise.reject(new UnauthorizedError('The simulator posts no events over HTTP'));
  }

  /**
   * Takes up to `limit` calls due at `now` for delivery, moving their due time to `retakeAt` so that
   * another worker takes them only if this one dies before `remove`.
   */
  async takeDue(now: Date, retakeAt: Date, limit: number): Promise<DueSimulatedCall[]> {
    const { rows } = await sqlExecutor(this.dataSource, null).query<SimulatedCallRow>(
      `WITH due AS MATERIALIZED (
         SELECT id FROM simulated_calls WHERE due_at <= $1 ORDER BY due_at LIMIT $3 FOR UPDATE SKIP LOCKED)
       UPDATE simulated_calls s SET due_at = $2 FROM due WHERE s.id = due.id
       RETURNING s.id, s.call_log_id, s.due_at, s.request`,
      [now, retakeAt, limit],
    );
    return rows.map((row) => {
      const callLogId = Number(row.call_log_id);
      const startedAt = new Date(row.request.startedAt);
      return {
        id: row.id,
        events: [
          {
            key: `${row.id}:started`,
            kind: 'started',
            providerCallId: row.id,
            callLogId,
            at: startedAt,
          },
          {
            key: `${row.id}:ended`,
            kind: 'ended',
            providerCallId: row.id,
            callLogId,
            at: new Date(startedAt.getTime() + row.request.durationSeconds * 1000),
            result: simulatedResult(callLogId, row.request),
          },
        ],
      };
    });
  }

  async remove(ids: string[]): Promise<void> {
    if (ids.length === 0) return;
    await sqlExecutor(this.dataSource, null).query(
      `DELETE FROM simulated_calls WHERE id = ANY($1)`,
      [ids],
    );
  }

  async nextDue(): Promise<Date | null> {
    const { rows } = await sqlExecutor(this.dataSource, null).query<{ at: Date | null }>(
      `SELECT min(due_at) AS at FROM simulated_calls`,
    );
    return rows[0]?.at ?? null;
  }
}
