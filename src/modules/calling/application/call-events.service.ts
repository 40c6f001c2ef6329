import { Injectable, Logger } from '@nestjs/common';
import { UnitOfWork } from '../../../common/persistence/unit-of-work';
import { CallLogService } from '../../call-log/application/call-log.service';
import type { CallLog } from '../../call-log/domain/call-log';
import { CampaignReader } from '../../campaign/application/ports/campaign-reader';
import type { Campaign } from '../../campaign/domain/campaign';
import { CallCompletion } from './call-completion.service';
import { CallingSettings } from './calling-settings';
import { CallEventStore } from './ports/call-event.store';
import { CallEvent } from './ports/call-provider';

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
  ) {}

  async ingest(connection: string, events: CallEvent[]): Promise<EventResult[]> {
    if (events.length === 0) return [];
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
        known.filter((e): e is CallEvent & { callLogId: number } => e !== null),
      );
      const out: EventResult[] = [];
      for (const event of known) {
        if (event === null) {
          out.push('unknown_call');
          continue;
        }
        if (!stored.delete(event.key)) {
          out.push('duplicate');
          continue;
        }
        const log = logs.get(event.callLogId)!;
        if (event.kind === 'started') {
          // Accepted calls get their real deadline; a started event after the end changes nothing.
          const accepted =
            event.providerCallId !== null &&
            log.providerCallId === null &&
            (await this.callLogs.recordProviderCallId(
              tx,
              log.id,
              event.providerCallId,
              this.settings.callDeadline(log.startedAt),
            ));
          out.push(accepted || log.endedAt === null ? 'applied' : 'stale');
          continue;
        }
        const ended = await this.completion.finish(
          tx,
          log,
          campaigns.get(log.campaignId)!,
          event.result ?? {
            outcome: 'TECHNICAL_FAILURE',
            endedReason: 'unknown',
            durationSeconds: 0,
            transcripts: [],
            agentData: {},
            postCallData: null,
            qa: null,
            recordingUrls: [],
            outputData: {},
          },
          {
            providerCallId: event.providerCallId,
            // The provider's event caused this ending: its connection and the event's key.
            actor: { type: 'provider', id: `${connection}:${event.key}` },
          },
        );
        out.push(ended ? 'applied' : 'stale');
      }
      return out;
    });
    results.forEach((result, i) => {
      if (result === 'unknown_call') {
        this.logger.warn(
          {
            connection,
            kind: events[i].kind,
            providerCallId: events[i].providerCallId,
            callLogId: events[i].callLogId,
          },
          'event for an unknown call',
        );
      }
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
