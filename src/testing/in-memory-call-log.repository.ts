import { Tx } from '../common/persistence/unit-of-work';
import {
  CallLogFilter,
  CallLogRepository,
  RecoverableCall,
} from '../modules/call-log/application/ports/call-log.repository';
import { CallLog, CallLogCompletion, NewCallLog } from '../modules/call-log/domain/call-log';

/** The call-log port in memory, with the same rules as the SQL adapter (see the contract suite). */
export class InMemoryCallLogRepository extends CallLogRepository {
  readonly logs = new Map<number, CallLog>();
  private nextId = 1;

  async create(_tx: Tx, log: NewCallLog): Promise<number> {
    const id = this.nextId++;
    this.logs.set(id, {
      id,
      ...log,
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
  }

  async complete(_tx: Tx, id: number, c: CallLogCompletion): Promise<boolean> {
    const log = this.logs.get(id);
    if (!log || log.endedAt !== null) return false;
    Object.assign(log, structuredClone(c));
    return true;
  }

  async renewLease(id: number, until: Date): Promise<boolean> {
    const log = this.logs.get(id);
    if (!log || log.leaseExpiresAt === null) return false;
    log.leaseExpiresAt = until;
    return true;
  }

  async releaseLease(_tx: Tx, id: number): Promise<void> {
    const log = this.logs.get(id);
    if (log) log.leaseExpiresAt = null;
  }

  async findRecoverable(now: Date, startedBefore: Date, limit: number): Promise<RecoverableCall[]> {
    return [...this.logs.values()]
      .filter(
        (l) =>
          l.leaseExpiresAt !== null &&
          (l.leaseExpiresAt < now || (l.endedAt === null && l.startedAt < startedBefore)),
      )
      .sort((a, b) => a.id - b.id)
      .slice(0, limit)
      .map((l) => ({ callLogId: l.id, targetId: l.targetId }));
  }

  async findById(id: number): Promise<CallLog | null> {
    const log = this.logs.get(id);
    return log ? structuredClone(log) : null;
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
          (!filter.from || l.createdAt >= filter.from) &&
          (!filter.to || l.createdAt <= filter.to),
      )
      .sort((a, b) => a.id - b.id);
    return {
      items: all.slice(offset, offset + limit).map((l) => structuredClone(l)),
      total: all.length,
    };
  }
}
