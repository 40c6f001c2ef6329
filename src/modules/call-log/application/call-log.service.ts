import { Injectable } from '@nestjs/common';
import { NotFoundError } from '../../../common/errors/domain-errors.js';
import { offsetOf, PageRequest } from '../../../common/paging/paging.js';
import { Tx } from '../../../common/persistence/unit-of-work.js';
import { isUuid } from '../../../common/ids/canonical-uuid.js';
import { CallLog, CallLogCompletion, NewCallLog } from '../domain/call-log.js';
import {
  CallLogCompletionEntry,
  CallLogRepository,
  CallLookup,
  CampaignCallCounts,
} from './ports/call-log.repository.js';

export interface CallLogQuery extends PageRequest {
  from?: Date | null;
  to?: Date | null;
  campaignId?: string | null;
  /** Only these campaigns (a credential limited to them); null or absent: every campaign. */
  campaignIds?: string[] | null;
}

/** Reading call logs (API) and writing them (the calling engine, inside its transactions). */
@Injectable()
export class CallLogService {
  constructor(private readonly repository: CallLogRepository) {}

  async list(
    organizationId: string,
    query: CallLogQuery,
  ): Promise<{ items: CallLog[]; total: number }> {
    // A campaign filter that is not a UUID matches nothing (and must not reach a uuid column).
    if (query.campaignId && !isUuid(query.campaignId)) return { items: [], total: 0 };
    const { campaignId, campaignIds, from, to } = query;
    const filter = { organizationId, campaignId, campaignIds: campaignIds ?? null, from, to };
    return this.repository.list(filter, offsetOf(query), query.limit);
  }

  async get(organizationId: string, id: number): Promise<CallLog> {
    const log = Number.isSafeInteger(id) ? await this.repository.findById(id) : null;
    if (!log || log.organizationId !== organizationId)
      throw new NotFoundError('Call log not found');
    return log;
  }

  /**
   * The organization's call a lookup names: an open one first, else the latest ended (null: none);
   * with `campaignIds`, only among those campaigns' calls.
   */
  findLatest(
    organizationId: string,
    lookup: CallLookup,
    campaignIds: string[] | null = null,
  ): Promise<CallLog | null> {
    if ('id' in lookup && !Number.isSafeInteger(lookup.id)) return Promise.resolve(null);
    if ('targetIds' in lookup && lookup.targetIds.length === 0) return Promise.resolve(null);
    return this.repository.findLatest(organizationId, lookup, campaignIds);
  }

  /** Exact counts of a campaign's calls (no tenancy: the caller checked the campaign's). */
  countCampaign(
    campaignId: string,
    connectedOutcomes: readonly string[],
    since: Date,
  ): Promise<CampaignCallCounts> {
    return this.repository.countCampaign(campaignId, connectedOutcomes, since);
  }

  /**
   * How many of the campaign's last `window` calls ended after `endedAfter` there are and how many ended with `outcome`
   * (the circuit breaker's read; no tenancy: the caller holds the campaign).
   */
  recentOutcomeShare(
    campaignId: string,
    window: number,
    outcome: string,
    endedAfter: Date | null,
  ): Promise<{ ended: number; matching: number }> {
    return this.repository.recentOutcomeShare(campaignId, window, outcome, endedAfter);
  }

  findById(id: number, tx: Tx | null = null): Promise<CallLog | null> {
    return this.repository.findById(id, tx);
  }

  findByIds(ids: number[], tx: Tx | null = null): Promise<CallLog[]> {
    return this.repository.findByIds(ids, tx);
  }

  findByProviderCallIds(provider: string, providerCallIds: string[]): Promise<CallLog[]> {
    return this.repository.findByProviderCallIds(provider, providerCallIds);
  }

  startMany(tx: Tx, logs: NewCallLog[]): Promise<number[]> {
    return this.repository.createMany(tx, logs);
  }

  recordProviderCallId(
    tx: Tx | null,
    id: number,
    providerCallId: string,
    deadlineAt: Date,
  ): Promise<boolean> {
    return this.repository.recordProviderCallId(tx, id, providerCallId, deadlineAt);
  }

  recordProviderCallIds(
    entries: { id: number; providerCallId: string; deadlineAt: Date }[],
    tx: Tx | null = null,
  ): Promise<number[]> {
    return this.repository.recordProviderCallIds(entries, tx);
  }

  complete(tx: Tx, id: number, completion: CallLogCompletion): Promise<boolean> {
    return this.repository.complete(tx, id, completion);
  }

  /** Closes every call of `entries` still open, in one statement; the ids it closed. */
  completeMany(tx: Tx, entries: CallLogCompletionEntry[]): Promise<number[]> {
    return this.repository.completeMany(tx, entries);
  }

  claimOverdue(now: Date, retryAt: Date, limit = 200): Promise<CallLog[]> {
    return this.repository.claimOverdue(now, retryAt, limit);
  }
}
