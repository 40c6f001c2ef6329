import { Injectable } from '@nestjs/common';
import { NotFoundError } from '../../../common/errors/domain-errors.js';
import { normalizedPhoneNumberAt } from '../../../common/phone/phone-number.js';
import { CallLogService } from '../../call-log/application/call-log.service.js';
import type { CallLookup } from '../../call-log/application/ports/call-log.repository.js';
import type { CallLog } from '../../call-log/domain/call-log.js';
import { TargetService } from '../../target/application/target.service.js';
import type { Target } from '../../target/domain/target.js';

/** How a live-call lookup names its call, as the reference lists them (the first one given wins). */
export type LiveCallQuery =
  { callLogId: number } | { userPhoneNumber: string } | { key: string; value: string };

/** How many targets holding a variable's value are looked among (the most recently called first). */
export const TARGETS_BY_VALUE = 200;

export interface LiveCall {
  /** `live_calls` while the call has not ended, else `call_logs` (the reference's two sources). */
  source: 'live_calls' | 'call_logs';
  log: CallLog;
  /** The call's target now; null when it was deleted since (call logs outlive their target). */
  target: Target | null;
}

/**
 * `GET /live-calls`: a snapshot of one call of the organization, found by its call log id, the number
 * called, or a variable of its target's input data; a call in flight first, else the latest ended.
 * A credential limited to campaigns (`campaignIds`) finds only their calls: the latest call of its
 * campaigns, never one of another campaign, which is not found as in another organization.
 */
@Injectable()
export class LiveCallService {
  constructor(
    private readonly callLogs: CallLogService,
    private readonly targets: TargetService,
  ) {}

  async find(
    organizationId: string,
    query: LiveCallQuery,
    campaignIds: string[] | null = null,
  ): Promise<LiveCall> {
    const log = await this.callLogs.findLatest(
      organizationId,
      await this.lookup(organizationId, query, campaignIds),
      campaignIds,
    );
    if (!log) throw new NotFoundError('Live call not found');
    return {
      source: log.endedAt === null ? 'live_calls' : 'call_logs',
      log,
      target: await this.targets.find(organizationId, log.targetId),
    };
  }

  private async lookup(
    organizationId: string,
    query: LiveCallQuery,
    campaignIds: string[] | null,
  ): Promise<CallLookup> {
    if ('callLogId' in query) return { id: query.callLogId };
    if ('userPhoneNumber' in query)
      return { to: normalizedPhoneNumberAt(query.userPhoneNumber, ['user_phone_number']) };
    // A dotted key reaches into nested input data, as template placeholders do.
    const targetIds = await this.targets.findIdsByInputValue(
      organizationId,
      query.key.split('.'),
      query.value,
      TARGETS_BY_VALUE,
      campaignIds,
    );
    return { targetIds };
  }
}
