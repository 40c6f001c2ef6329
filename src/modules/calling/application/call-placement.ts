import { Injectable, Logger } from '@nestjs/common';
import { Metrics } from '../../../common/metrics/metrics.js';
import { CoalescingWriter } from '../../../common/batching/coalescing-writer.js';
import { Clock } from '../../../common/clock/clock.js';
import { CallLogService } from '../../call-log/application/call-log.service.js';
import type { CallLog } from '../../call-log/domain/call-log.js';
import { CallCompletion, failedCall } from './call-completion.js';
import { CallingSettings } from './calling-settings.js';
import { CallProvider, StartCallRequest } from '../../telephony/application/ports/call-provider.js';

/** A claimed call, ready to be placed (its call log is open, its target `In Progress`). */
export interface ClaimedCall {
  /** Its campaign's provider, resolved when the call was claimed. */
  provider: CallProvider;
  log: CallLog;
  request: StartCallRequest;
}

/**
 * Places claimed calls outside any transaction, at most `placementConcurrency` at once in this
 * process. Placing is one request to the provider, which answers at once with its call id: the call
 * then holds nothing here. A placement that throws ends the attempt as a technical failure through
 * the completion path; a process that dies mid-placement leaves a call log without a provider id,
 * which the deadline sweep recovers (never dialled again for this attempt).
 */
@Injectable()
export class CallPlacement {
  private readonly logger = new Logger('Calls');
  private active = 0;
  private readonly idle = new Set<() => void>();
  private readonly running = new Set<Promise<void>>();
  /** Provider ids of placements that finish together are recorded in one statement. */
  private readonly accepted = new CoalescingWriter<{
    id: number;
    providerCallId: string;
    deadlineAt: Date;
  }>(async (entries) => {
    await this.callLogs.recordProviderCallIds(entries);
  });

  constructor(
    private readonly callLogs: CallLogService,
    private readonly completion: CallCompletion,
    private readonly settings: CallingSettings,
    private readonly clock: Clock,
    private readonly metrics: Metrics,
  ) {}

  /** Placements that can start now without exceeding the concurrency. */
  free(): number {
    return Math.max(0, this.settings.placementConcurrency - this.active);
  }

  /** Resolves when a placement finishes (or at once when there is room). */
  whenFree(): Promise<void> {
    if (this.free() > 0) return Promise.resolve();
    return new Promise((resolve) => this.idle.add(resolve));
  }

  /** Starts the placements (never rejects; errors are handled per call). */
  place(calls: ClaimedCall[]): void {
    for (const call of calls) {
      this.active++;
      const run = this.placeOne(call).finally(() => {
        this.active--;
        this.running.delete(run);
        const waiting = [...this.idle];
        this.idle.clear();
        waiting.forEach((resolve) => resolve());
      });
      this.running.add(run);
    }
  }

  /** Waits for the placements under way (shutdown). */
  async drain(): Promise<void> {
    await Promise.all([...this.running]);
  }

  private async placeOne({ provider, log, request }: ClaimedCall): Promise<void> {
    let providerCallId: string;
    try {
      ({ providerCallId } = await provider.startCall(request));
    } catch (err) {
      this.logger.warn(
        { err, callLogId: log.id, targetId: log.targetId, provider: provider.name },
        'placing the call failed',
      );
      await this.completion
        .finishNow(log, failedCall('provider-error'))
        .catch((e) =>
          this.logger.error(
            { err: e, callLogId: log.id },
            'ending a failed placement failed; the deadline sweep will',
          ),
        );
      return;
    }
    try {
      await this.accepted.add({
        id: log.id,
        providerCallId,
        deadlineAt: this.settings.callDeadline(log.startedAt),
      });
    } catch (err) {
      // The call runs; its events name it by our call log id, or the sweep asks the provider.
      this.logger.warn({ err, callLogId: log.id }, 'recording the provider call id failed');
    }
    this.logger.log(
      {
        callLogId: log.id,
        targetId: log.targetId,
        campaignId: log.campaignId,
        attempt: log.attempt,
        provider: provider.name,
        providerCallId,
        placedInMs: this.clock.now().getTime() - log.startedAt.getTime(),
      },
      'call placed',
    );
    this.metrics.callPlaced(provider.name);
  }
}
