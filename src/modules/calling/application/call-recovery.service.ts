import { Injectable, Logger } from '@nestjs/common';
import { Clock } from '../../../common/clock/clock';
import { CallLogService } from '../../call-log/application/call-log.service';
import type { CallLog } from '../../call-log/domain/call-log';
import { DEADLINE_EXPIRED, WORKER_LOST } from '../domain/call-outcome';
import { CallCompletion, failedCall } from './call-completion.service';
import { CallEventIngestion } from './call-events.service';
import { CallingSettings } from './calling-settings';
import { CallProviders } from './ports/call-provider';

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
    let recovered = 0;
    for (const log of overdue) {
      try {
        if (await this.recover(log)) recovered++;
      } catch (err) {
        this.logger.warn({ err, callLogId: log.id }, 'recovery failed; it will be retried');
      }
    }
    return { recovered };
  }

  private async recover(log: CallLog): Promise<boolean> {
    const provider = await this.providers.get(log.provider);
    const answer = provider
      ? await provider
          .getCall({ providerCallId: log.providerCallId, callLogId: log.id })
          .catch((err) => {
            this.logger.warn(
              { err, callLogId: log.id, provider: log.provider },
              'asking the provider failed',
            );
            return null;
          })
      : null;
    if (answer?.kind === 'ended') {
      const [result] = await this.ingestion.ingest(log.provider, [
        { ...answer, callLogId: log.id },
      ]);
      if (result === 'applied' || result === 'stale') return result === 'applied';
    }
    if (answer?.kind === 'started' && log.providerCallId === null && answer.providerCallId) {
      // The provider did accept it (the worker died before recording that): it runs, with its deadline.
      await this.ingestion.ingest(log.provider, [{ ...answer, callLogId: log.id }]);
      return false;
    }
    const reason = log.providerCallId === null ? WORKER_LOST : DEADLINE_EXPIRED;
    return this.completion.finishNow(log, failedCall(reason), { lost: true });
  }
}
