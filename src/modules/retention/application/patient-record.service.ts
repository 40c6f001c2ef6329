import { randomUUID } from 'node:crypto';
import { Injectable, Logger } from '@nestjs/common';
import { Clock } from '../../../common/clock/clock.js';
import { UnitOfWork } from '../../../common/persistence/unit-of-work.js';
import type { PatientRecord } from '../domain/patient-record.js';
import { RETENTION_PARTS } from '../domain/retention-policy.js';
import type { PatientKey, RetentionRun } from '../domain/retention-run.js';
import { PatientDataCopies } from './patient-data-copies.js';
import {
  CallLogData,
  ComplianceData,
  MessageData,
  TargetData,
} from './ports/patient-data-holders.js';
import { RetentionStore } from './ports/retention.store.js';
import { prefixed, PURGE_BATCH } from './retention-purge.js';

export interface ErasureRequest {
  organizationId: string;
  key: PatientKey;
  reason: string;
  includeDoNotCall: boolean;
  apiKeyId: string | null;
}

export interface Erasure {
  run: RetentionRun;
  /** Targets erased. */
  targetIds: string[];
  /** Targets in a call when asked: not erased (erase again once the call has ended). */
  inCallTargetIds: string[];
}

/** One person across the organization's campaigns: read (right of access) and erased. */
@Injectable()
export class PatientRecordService {
  private readonly logger = new Logger('Retention');

  constructor(
    private readonly targets: TargetData,
    private readonly callLogs: CallLogData,
    private readonly messages: MessageData,
    private readonly compliance: ComplianceData,
    private readonly copies: PatientDataCopies,
    private readonly store: RetentionStore,
    private readonly uow: UnitOfWork,
    private readonly clock: Clock,
  ) {}

  /** Targets a page at a time (by creation); their call logs, texts and decisions with them. */
  async record(
    organizationId: string,
    key: PatientKey,
    skip: number,
    limit: number,
  ): Promise<PatientRecord> {
    const all = await this.targets.patientTargetIds(organizationId, key);
    const page = all.slice(skip, skip + limit);
    const targets = await this.targets.patientTargets(organizationId, page);
    const numbers = [
      ...new Set(
        [
          'phoneNumber' in key ? key.phoneNumber : null,
          ...targets.flatMap((t) => [t.phoneNumber, t.fallbackPhoneNumber]),
        ].filter((n): n is string => n !== null && n !== ''),
      ),
    ];
    return {
      targets,
      totalTargets: all.length,
      callLogs: await this.callLogs.patientCallLogs(organizationId, page),
      messages: await this.messages.patientMessages(organizationId, page, numbers),
      doNotCall: await this.compliance.doNotCallEntries(organizationId, numbers),
      decisions: await this.compliance.decisions(organizationId, page),
    };
  }

  /**
   * Purges every part of every target of the person (as the retention job's `finished_targets`
   * window would), texts from or to the number that matched no target, and the number's do-not-call
   * entries when asked; one run record says what, how many and why.
   */
  async erase(req: ErasureRequest): Promise<Erasure> {
    const found = await this.targets.patientTargetIds(req.organizationId, req.key);
    const run: RetentionRun = {
      id: randomUUID(),
      organizationId: req.organizationId,
      kind: 'erasure',
      trigger: 'api',
      status: 'running',
      policies: [],
      subject: req.key,
      reason: req.reason,
      counts: { targets: 0 },
      startedAt: this.clock.now(),
      finishedAt: null,
      apiKeyId: req.apiKeyId,
    };
    await this.store.insertRun(null, run);
    const erased: string[] = [];
    for (let i = 0; i < found.length; i += PURGE_BATCH) {
      const batch = found.slice(i, i + PURGE_BATCH);
      erased.push(
        ...(await this.uow.run(async (tx) => {
          const ids = await this.targets.lockErasable(tx, req.organizationId, batch);
          if (ids.length === 0) return ids;
          const rows = await this.copies.purge(
            tx,
            req.organizationId,
            ids,
            [...RETENTION_PARTS],
            this.clock.now(),
          );
          await this.store.addCounts(tx, run.id, { targets: ids.length, ...prefixed(rows) });
          return ids;
        })),
      );
    }
    const finished = await this.uow.run(async (tx) => {
      if ('phoneNumber' in req.key) {
        const texts = await this.messages.eraseUnmatched(
          tx,
          req.organizationId,
          req.key.phoneNumber,
        );
        const listed = req.includeDoNotCall
          ? await this.compliance.eraseDoNotCall(tx, req.organizationId, [req.key.phoneNumber])
          : 0;
        await this.store.addCounts(tx, run.id, {
          unmatched_messages: texts,
          do_not_call_entries: listed,
        });
      }
      return this.store.finishRun(tx, run.id, this.clock.now());
    });
    const inCall = found.filter((id) => !erased.includes(id));
    this.logger.log(
      { runId: run.id, targets: erased.length, inCall: inCall.length },
      'patient data erased',
    );
    return { run: finished, targetIds: erased, inCallTargetIds: inCall };
  }
}
