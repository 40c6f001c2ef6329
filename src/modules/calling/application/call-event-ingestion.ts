import { Injectable, Logger } from '@nestjs/common';
import { Clock, SystemClock } from '../../../common/clock/clock.js';
import { UnitOfWork } from '../../../common/persistence/unit-of-work.js';
import { storableCopy } from '../../../common/validation/storable.js';
import { CallLogService } from '../../call-log/application/call-log.service.js';
import type { CallLog } from '../../call-log/domain/call-log.js';
import { CampaignReader } from '../../campaign/application/ports/campaign-reader.js';
import type { Campaign } from '../../campaign/domain/campaign.js';
import { CallCompletion, EndedCall, failedCall } from './call-completion.js';
import { CallingSettings } from './calling-settings.js';
import { CallEventStore, ReceivedCallEvent } from './ports/call-event.store.js';
import { InvalidInputError } from '../../../common/errors/domain-errors.js';
import { eventTime, MAX_PROVIDER_CALL_ID } from '../domain/provider-report.js';
import { CallEvent } from '../../telephony/application/ports/call-provider.js';

/**
 * `applied`: stored and acted on; `duplicate`: stored before (a no-op); `stale`: stored, but the call
 * had already ended or moved on (a late or repeated final status: a no-op); `unknown_call`: names no
 * call of this connection (nothing stored).
 */
export type EventResult = 'applied' | 'duplicate' | 'stale' | 'unknown_call';

/**
 * Provider events into the engine: the events route (any API process) and the simulator both come
 * through `ingest`, after the provider adapter authenticated and parsed them. Each batch is one
 * transaction: the events are stored (once per connection and key) and only newly stored ones are
 * applied, through the one completion path.
 */
@Injectable()
export class CallEventIngestion {
  private readonly logger = new Logger('CallEvents');

  constructor(
    private readonly callLogs: CallLogService,
    private readonly campaigns: CampaignReader,
    private readonly store: CallEventStore,
    private readonly completion: CallCompletion,
    private readonly settings: CallingSettings,
    private readonly uow: UnitOfWork,
    private readonly clock: Clock = new SystemClock(),
  ) {}

  async ingest(connection: string, received: CallEvent[]): Promise<EventResult[]> {
    if (received.length === 0) return [];
    const now = this.clock.now();
    if (received.some((e) => (e.providerCallId?.length ?? 0) > MAX_PROVIDER_CALL_ID)) {
      throw new InvalidInputError(
        `a call id is at most ${MAX_PROVIDER_CALL_ID} characters`,
        [],
        null,
      );
    }
    const events = received.map((e) => storableCopy({ ...e, at: eventTime(e.at, now) }));
    // Read before the transaction opens (embedded PGlite serialises transactions with other reads).
    const logs = await this.resolveCalls(connection, events);
    const campaigns = new Map<string, Campaign | null>();
    for (const log of logs.values()) {
      if (!campaigns.has(log.campaignId))
        campaigns.set(log.campaignId, await this.campaigns.findById(log.campaignId));
    }
    const byProviderCallId = new Map(
      [...logs.values()]
        .filter((l) => l.providerCallId !== null)
        .map((l) => [l.providerCallId!, l]),
    );
    const known = events.map((e) => {
      const log = logOf(e, logs, byProviderCallId);
      return log && campaigns.get(log.campaignId) ? { ...e, callLogId: log.id } : null;
    });
    const results = await this.uow.run(async (tx) => {
      const stored = await this.store.storeNew(
        tx,
        connection,
        known.filter((e): e is ReceivedCallEvent => e !== null),
      );
      const out: EventResult[] = [];
      // Newly stored events, applied together: one statement for the accepted calls, then one
      // completion of the batch's ended calls.
      const started: { index: number; log: CallLog; providerCallId: string | null }[] = [];
      const ended: { index: number; call: EndedCall }[] = [];
      known.forEach((event, index) => {
        if (event === null) {
          out.push('unknown_call');
          return;
        }
        if (!stored.delete(event.key)) {
          out.push('duplicate');
          return;
        }
        const log = logs.get(event.callLogId)!;
        out.push('applied');
        if (event.kind === 'started') {
          started.push({ index, log, providerCallId: event.providerCallId });
          return;
        }
        ended.push({
          index,
          call: {
            log,
            campaign: campaigns.get(log.campaignId)!,
            result: event.result ?? failedCall('unknown'),
            completion: {
              providerCallId: event.providerCallId,
              // The provider's event caused this ending: its connection and the event's key.
              actor: { type: 'provider', id: `${connection}:${event.key}` },
            },
          },
        });
      });
      // Accepted calls get their real deadline; a started event after the end changes nothing.
      const accepting = new Map<number, { id: number; providerCallId: string; deadlineAt: Date }>();
      for (const { log, providerCallId } of started) {
        if (providerCallId !== null && log.providerCallId === null && !accepting.has(log.id)) {
          accepting.set(log.id, {
            id: log.id,
            providerCallId,
            deadlineAt: this.settings.callDeadline(log.startedAt),
          });
        }
      }
      const accepted = new Set(
        await this.callLogs.recordProviderCallIds([...accepting.values()], tx),
      );
      for (const { index, log } of started) {
        if (!accepted.has(log.id) && log.endedAt !== null) out[index] = 'stale';
      }
      const applied = await this.completion.finishAll(
        tx,
        ended.map((e) => e.call),
      );
      ended.forEach(({ index }, i) => {
        if (!applied[i]) out[index] = 'stale';
      });
      return out;
    });
    results.forEach((result, i) => {
      if (result !== 'unknown_call') return;
      const { kind, providerCallId, callLogId } = events[i];
      this.logger.warn(
        { connection, kind, providerCallId, callLogId },
        'event for an unknown call',
      );
    });
    return results;
  }

  /** The call logs the events name: by our id where the provider echoes it, else by its call id. */
  private async resolveCalls(
    connection: string,
    events: CallEvent[],
  ): Promise<Map<number, CallLog>> {
    const ids = [
      ...new Set(events.map((e) => e.callLogId).filter((id): id is number => id !== null)),
    ];
    const providerIds = [
      ...new Set(
        events
          .filter((e) => e.callLogId === null && e.providerCallId !== null)
          .map((e) => e.providerCallId!),
      ),
    ];
    const found = [
      ...(await this.callLogs.findByIds(ids)),
      ...(await this.callLogs.findByProviderCallIds(connection, providerIds)),
    ].filter((log) => log.provider === connection);
    return new Map(found.map((log) => [log.id, log]));
  }
}

function logOf(
  event: CallEvent,
  logs: Map<number, CallLog>,
  byProviderCallId: Map<string, CallLog>,
): CallLog | null {
  if (event.callLogId !== null) {
    const log = logs.get(event.callLogId) ?? null;
    // An event naming our call and another provider call id than the one recorded is not for it.
    if (
      log &&
      event.providerCallId &&
      log.providerCallId &&
      log.providerCallId !== event.providerCallId
    )
      return null;
    return log;
  }
  return event.providerCallId === null
    ? null
    : (byProviderCallId.get(event.providerCallId) ?? null);
}
