import { Injectable } from '@nestjs/common';
import { NotFoundError } from '../../../common/errors/domain-errors';
import { offsetOf, PageRequest } from '../../../common/http/paging';
import { Tx } from '../../../common/persistence/unit-of-work';
import { isUuid } from '../../../common/validation/py-validators';
import { CallLog, CallLogCompletion, NewCallLog } from '../domain/call-log';
import { CallLogRepository, RecoverableCall } from './ports/call-log.repository';

export interface CallLogQuery extends PageRequest {
  from?: Date | null;
  to?: Date | null;
  campaignId?: string | null;
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
    return this.repository.list(
      { organizationId, campaignId: query.campaignId, from: query.from, to: query.to },
      offsetOf(query),
      query.limit,
    );
  }

  async get(organizationId: string, id: number): Promise<CallLog> {
    const log = Number.isSafeInteger(id) ? await this.repository.findById(id) : null;
    if (!log || log.organizationId !== organizationId)
      throw new NotFoundError('Call log not found');
    return log;
  }

  findById(id: number): Promise<CallLog | null> {
    return this.repository.findById(id);
  }

  start(tx: Tx, log: NewCallLog): Promise<number> {
    return this.repository.create(tx, log);
  }

  complete(tx: Tx, id: number, completion: CallLogCompletion): Promise<boolean> {
    return this.repository.complete(tx, id, completion);
  }

  renewLease(id: number, until: Date): Promise<boolean> {
    return this.repository.renewLease(id, until);
  }

  releaseLease(tx: Tx, id: number): Promise<void> {
    return this.repository.releaseLease(tx, id);
  }

  findRecoverable(now: Date, startedBefore: Date, limit = 500): Promise<RecoverableCall[]> {
    return this.repository.findRecoverable(now, startedBefore, limit);
  }
}
