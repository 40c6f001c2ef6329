import { Injectable } from '@nestjs/common';
import type { Tx } from '../../../common/persistence/unit-of-work.js';
import type { RetentionPart } from '../domain/retention-policy.js';
import {
  CallLogData,
  MessageData,
  PatientDataHolder,
  TargetData,
  WebhookData,
} from './ports/patient-data-holders.js';

/**
 * Every copy of a target's data, purged together in the caller's transaction: the target row and its
 * events, its call logs, its texts, its stored webhook answers. Job payloads hold ids only (a text's,
 * a delivery's, an import's) and a simulated call's pending end is deleted when it ends, so neither
 * holds a purged value past the call.
 */
@Injectable()
export class PatientDataCopies {
  private readonly holders: PatientDataHolder[];

  constructor(
    private readonly targets: TargetData,
    callLogs: CallLogData,
    messages: MessageData,
    webhooks: WebhookData,
  ) {
    this.holders = [callLogs, messages, webhooks];
  }

  /** Removes `parts` of the targets everywhere and marks them; rows changed per table. */
  async purge(
    tx: Tx,
    organizationId: string,
    targetIds: string[],
    parts: RetentionPart[],
    at: Date,
  ): Promise<Record<string, number>> {
    const changed = await this.targets.purge(tx, organizationId, targetIds, parts, at);
    for (const holder of this.holders) {
      for (const [table, n] of Object.entries(
        await holder.purge(tx, organizationId, targetIds, parts),
      )) {
        changed[table] = (changed[table] ?? 0) + n;
      }
    }
    return changed;
  }
}
