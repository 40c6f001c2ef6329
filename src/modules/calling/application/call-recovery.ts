import { Injectable, Logger } from '@nestjs/common';
import { Clock } from '../../../common/clock/clock.js';
import { CallLogService } from '../../call-log/application/call-log.service.js';
import type { CallLog } from '../../call-log/domain/call-log.js';
import { DEADLINE_EXPIRED, WORKER_LOST } from '../../telephony/domain/call-outcome.js';
import { CallCompletion, failedCall } from './call-completion.js';
import { CallEventIngestion } from './call-event-ingestion.js';
import { CallingSettings } from './calling-settings.js';
import { CallEvent, CallProviders } from '../../telephony/application/ports/call-provider.js';

/** A call taken by a sweep is looked at again after this long if that sweep died. */
const RETAKE_AFTER_MS = 60_000;

/**
 * The deadline sweep: open calls past their deadline (no final event by MAX_CALL_MINUTES, or never
 * accepted by the provider within the placing deadline because the worker placing it died) are asked
 * of their provider and its answer applied through the events path; when it cannot tell, the attempt
 * ends `To review` (outcome unknown: dialling again could reach the person twice). Any number of
 * workers may sweep at once: each call is taken by one (SKIP LOCKED, deadline moved on).
 */
@Injectable()
export class CallRecovery {
  private readonly logger = new Logger('CallRecovery');

  constructor(
    private readonly callLogs: CallLogService,
    private readonly providers: CallProviders,
    private readonly ingestion: CallEventIngestion,
    private readonly completion: CallCompletion,
    private readonly settings: CallingSettings,
    private readonly clock: Clock,
  ) {}

  async sweep(limit = 200): Promise<{ recovered: number }> {
    const now = this.clock.now();
    const overdue = await this.callLogs.claimOverdue(
      now,
      new Date(now.getTime() + RETAKE_AFTER_MS),
      limit,
    );
    // Each call's provider is asked first; the answers are then applied per provider in one batch,
    // and the calls nobody can tell about end together. A batch that fails is retried with its calls
    // (their deadlines moved on by RETAKE_AFTER_MS).
    const ended: { log: CallLog; event: CallEvent }[] = [];
    const accepted: { log: CallLog; event: CallEvent }[] = [];
    const lost: CallLog[] = [];
    for (const log of overdue) {
      const answer = await this.ask(log);
      if (answer?.kind === 'ended') ended.push({ log, event: { ...answer, callLogId: log.id } });
      else if (answer?.kind === 'started' && log.providerCallId === null && answer.providerCallId)
        // The provider did accept it (the worker died before recording that): it runs, with its deadline.
        accepted.push({ log, event: { ...answer, callLogId: log.id } });
      else lost.push(log);
    }
    // Each provider's answers in one batch (null: the batch failed, its calls are retried).
    const ingest = (provider: string, calls: { log: CallLog; event: CallEvent }[]) =>
      this.guarded(calls, () =>
        this.ingestion.ingest(
          provider,
          calls.map((c) => c.event),
        ),
      );
    let recovered = 0;
    for (const [provider, calls] of byProvider(ended)) {
      (await ingest(provider, calls))?.forEach((result, i) => {
        if (result === 'applied') recovered++;
        else if (result !== 'stale') lost.push(calls[i].log);
      });
    }
    for (const [provider, calls] of byProvider(accepted)) await ingest(provider, calls);
    const ends = await this.guarded(
      lost.map((log) => ({ log })),
      () =>
        this.completion.finishAllNow(
          lost.map((log) => ({
            log,
            result: failedCall(log.providerCallId === null ? WORKER_LOST : DEADLINE_EXPIRED),
            completion: { lost: true },
          })),
        ),
    );
    return { recovered: recovered + (ends?.filter(Boolean).length ?? 0) };
  }

  /** The provider's answer about an overdue call (null: it cannot tell, or asking failed). */
  private async ask(log: CallLog): Promise<CallEvent | null> {
    const failed = (message: string) => (err: unknown) => {
      this.logger.warn({ err, callLogId: log.id, provider: log.provider }, message);
      return null;
    };
    // A connection that cannot be used (ConnectionUnusableError) cannot tell either.
    const provider = await this.providers.get(log.provider).catch(failed('provider unusable'));
    if (!provider) return null;
    return provider
      .getCall({ providerCallId: log.providerCallId, callLogId: log.id })
      .catch(failed('asking the provider failed'));
  }

  private async guarded<T>(calls: { log: CallLog }[], work: () => Promise<T>): Promise<T | null> {
    if (calls.length === 0) return null;
    try {
      return await work();
    } catch (err) {
      this.logger.warn(
        { err, callLogIds: calls.map((c) => c.log.id) },
        'recovery failed; it will be retried',
      );
      return null;
    }
  }
}

function byProvider<T extends { log: CallLog }>(calls: T[]): Map<string, T[]> {
  return Map.groupBy(calls, (call) => call.log.provider);
}
