import type { FoldReport } from '../common/persistence/count-folding.js';
import { Tx } from '../common/persistence/unit-of-work.js';
import {
  CallLogCompletionEntry,
  CallLogFilter,
  CallLogRepository,
  CallLookup,
  CampaignCallCounts,
} from '../modules/call-log/application/ports/call-log.repository.js';
import { CallLog, NewCallLog } from '../modules/call-log/domain/call-log.js';
import { clone, pageOf } from './in-memory-rows.js';

/** The call-log port in memory, with the same rules as the SQL adapter (see the contract suite). */
export class InMemoryCallLogRepository extends CallLogRepository {
  logs = new Map<number, CallLog>();
  private nextId = 1;

  async recentOutcomeShare(
    campaignId: string,
    window: number,
    outcome: string,
    endedAfter: Date | null,
  ): Promise<{ ended: number; matching: number }> {
    const recent = [...this.logs.values()]
      .filter(
        (l) =>
          l.campaignId === campaignId &&
          l.endedAt !== null &&
          (endedAfter === null || l.endedAt > endedAfter),
      )
      .sort((a, b) => b.endedAt!.getTime() - a.endedAt!.getTime() || b.id - a.id)
      .slice(0, window);
    return { ended: recent.length, matching: recent.filter((l) => l.outcome === outcome).length };
  }

  async countCampaign(
    campaignId: string,
    connectedOutcomes: readonly string[],
    since: Date,
  ): Promise<CampaignCallCounts> {
    const logs = [...this.logs.values()].filter((l) => l.campaignId === campaignId);
    const ended = logs.filter((l) => l.endedAt !== null);
    const connected = ended.filter(
      (l) => l.outcome !== null && connectedOutcomes.includes(l.outcome),
    );
    // As SQL's avg: calls without a duration are left out.
    const timed = connected.filter((l) => l.durationSeconds !== null);
    return {
      calls: logs.length,
      open: logs.length - ended.length,
      ended: ended.length,
      connected: connected.length,
      averageConnectedSeconds:
        timed.length === 0
          ? null
          : timed.reduce((sum, l) => sum + l.durationSeconds!, 0) / timed.length,
      startedSince: logs.filter((l) => l.startedAt >= since).length,
    };
  }

  async createMany(_tx: Tx, logs: NewCallLog[]): Promise<number[]> {
    return logs.map((log) => {
      const id = this.nextId++;
      this.logs.set(id, {
        id,
        ...clone(log),
        providerCallId: null,
        outcome: null,
        endedReason: null,
        callCategorization: null,
        outputData: null,
        subcategory: null,
        agentData: {},
        postCallData: null,
        qa: null,
        transcripts: [],
        recordingUrls: [],
        endedAt: null,
        durationSeconds: null,
        createdAt: log.startedAt,
      });
      return id;
    });
  }

  async completeMany(_tx: Tx, entries: CallLogCompletionEntry[]): Promise<number[]> {
    const closed: number[] = [];
    for (const { id, completion } of entries) {
      const log = this.logs.get(id);
      if (!log || log.endedAt !== null) continue;
      const { providerCallId, ...rest } = clone(completion);
      Object.assign(log, rest, {
        providerCallId: log.providerCallId ?? providerCallId,
        deadlineAt: null,
      });
      closed.push(id);
    }
    return closed;
  }

  async recordProviderCallIds(
    entries: { id: number; providerCallId: string; deadlineAt: Date }[],
    _tx: Tx | null = null,
  ): Promise<number[]> {
    return entries.flatMap(({ id, providerCallId, deadlineAt }) => {
      const log = this.logs.get(id);
      if (!log || log.endedAt !== null || log.providerCallId !== null) return [];
      Object.assign(log, { providerCallId, deadlineAt });
      return [id];
    });
  }

  async claimOverdue(now: Date, retryAt: Date, limit: number): Promise<CallLog[]> {
    const overdue = [...this.logs.values()]
      .filter((l) => l.endedAt === null && l.deadlineAt !== null && l.deadlineAt < now)
      .sort((a, b) => a.deadlineAt!.getTime() - b.deadlineAt!.getTime())
      .slice(0, limit);
    overdue.forEach((l) => (l.deadlineAt = retryAt));
    return overdue.map(clone);
  }

  async findByIds(ids: number[]): Promise<CallLog[]> {
    return ids.flatMap((id) => this.logs.get(id) ?? []).map(clone);
  }

  async findByProviderCallIds(provider: string, providerCallIds: string[]): Promise<CallLog[]> {
    const wanted = new Set(providerCallIds);
    return [...this.logs.values()]
      .filter(
        (l) => l.provider === provider && l.providerCallId !== null && wanted.has(l.providerCallId),
      )
      .map(clone);
  }

  async findLatest(
    organizationId: string,
    lookup: CallLookup,
    campaignIds: string[] | null = null,
  ): Promise<CallLog | null> {
    const matches = (l: CallLog) =>
      'id' in lookup
        ? l.id === lookup.id
        : 'to' in lookup
          ? l.to === lookup.to
          : lookup.targetIds.includes(l.targetId);
    const [latest] = [...this.logs.values()]
      .filter(
        (l) =>
          l.organizationId === organizationId &&
          (campaignIds === null || campaignIds.includes(l.campaignId)) &&
          matches(l),
      )
      .sort(
        (a, b) =>
          Number(b.endedAt === null) - Number(a.endedAt === null) ||
          b.startedAt.getTime() - a.startedAt.getTime() ||
          b.id - a.id,
      );
    return latest ? clone(latest) : null;
  }

  /** Nothing to fold: the fake counts its logs as it lists them. */
  async foldCounts(): Promise<FoldReport> {
    return {};
  }

  async list(
    filter: CallLogFilter,
    offset: number,
    limit: number,
  ): Promise<{ items: CallLog[]; total: number }> {
    const all = [...this.logs.values()]
      .filter(
        (l) =>
          l.organizationId === filter.organizationId &&
          (!filter.campaignId || l.campaignId === filter.campaignId) &&
          (!filter.campaignIds || filter.campaignIds.includes(l.campaignId)) &&
          (!filter.from || l.createdAt >= filter.from) &&
          (!filter.to || l.createdAt <= filter.to),
      )
      .sort((a, b) => a.id - b.id);
    return pageOf(all, offset, limit);
  }

  snapshot(): { logs: Map<number, CallLog>; nextId: number } {
    return { logs: clone(this.logs), nextId: this.nextId };
  }

  restore(state: { logs: Map<number, CallLog>; nextId: number }): void {
    this.logs = state.logs;
    this.nextId = state.nextId;
  }
}
