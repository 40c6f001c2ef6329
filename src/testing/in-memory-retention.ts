import type { Tx } from '../common/persistence/unit-of-work.js';
import {
  DueBatch,
  DueQuery,
  KnownTarget,
  TargetData,
} from '../modules/retention/application/ports/patient-data-holders.js';
import { RetentionStore } from '../modules/retention/application/ports/retention.store.js';
import type { PatientTarget } from '../modules/retention/domain/patient-record.js';
import { IN_FLIGHT_STATUSES, type Target } from '../modules/target/domain/target.js';
import { knownValuesOf } from '../modules/retention/domain/redaction.js';
import type {
  RetentionPart,
  RetentionPolicy,
  ScopedPolicy,
} from '../modules/retention/domain/retention-policy.js';
import type { PatientKey, RetentionRun } from '../modules/retention/domain/retention-run.js';
import { TranscriptRedactionService } from '../modules/retention/application/transcript-redaction.service.js';
import { PatternRedactor } from '../modules/retention/infrastructure/pattern-redactor.js';
import { targetKey, type TargetTable } from './in-memory-target.repository.js';
import { byCreatedThenId, clone, pageOf } from './in-memory-rows.js';

/** RetentionStore in memory: policies by scope, runs in a list. */
export class InMemoryRetentionStore extends RetentionStore {
  readonly saved = new Map<string, ScopedPolicy & { organizationId: string }>();
  readonly runList: RetentionRun[] = [];

  async policies(organizationId: string, _tx?: Tx | null): Promise<ScopedPolicy[]> {
    return [...this.saved.values()]
      .filter((p) => p.organizationId === organizationId)
      .sort((a, b) => (a.campaignId ?? '').localeCompare(b.campaignId ?? ''))
      .map((p) => ({ campaignId: p.campaignId, policy: clone(p.policy) }));
  }

  async savePolicy(organizationId: string, campaignId: string | null, policy: RetentionPolicy) {
    this.saved.set(`${organizationId}/${campaignId ?? ''}`, {
      organizationId,
      campaignId,
      policy: clone(policy),
    });
  }

  async deleteCampaignPolicy(organizationId: string, campaignId: string): Promise<boolean> {
    return this.saved.delete(`${organizationId}/${campaignId}`);
  }

  async organizationsWithWindows(): Promise<string[]> {
    const orgs = [...this.saved.values()]
      .filter((p) => Object.values(p.policy.windows).some((d) => d !== null))
      .map((p) => p.organizationId);
    return [...new Set(orgs)];
  }

  async insertRun(_tx: Tx | null, run: RetentionRun): Promise<void> {
    this.runList.push(clone(run));
  }

  async runningPurge(organizationId: string): Promise<RetentionRun | null> {
    const run = this.runList.find(
      (r) => r.organizationId === organizationId && r.kind === 'purge' && r.status === 'running',
    );
    return run ? clone(run) : null;
  }

  async addCounts(_tx: Tx, runId: string, counts: Record<string, number>): Promise<void> {
    const run = this.runList.find((r) => r.id === runId)!;
    for (const [k, n] of Object.entries(counts)) run.counts[k] = (run.counts[k] ?? 0) + n;
  }

  async commitLazily(_tx: Tx): Promise<void> {}

  async finishRun(_tx: Tx | null, runId: string, at: Date): Promise<RetentionRun> {
    const run = this.runList.find((r) => r.id === runId)!;
    run.status = 'finished';
    run.finishedAt = at;
    return clone(run);
  }

  async runs(organizationId: string, skip: number, limit: number) {
    const mine = this.runList
      .filter((r) => r.organizationId === organizationId)
      .sort((a, b) => b.startedAt.getTime() - a.startedAt.getTime());
    const { items: runs, total } = pageOf(mine, skip, limit);
    return { runs, total };
  }
}

const ENDED = new Set(['Finished', 'Failed']);

/** TargetData over the target fakes' shared rows: purges, finds and reads them as the SQL adapter. */
export class InMemoryTargetData extends TargetData {
  constructor(private readonly table: () => TargetTable) {
    super();
  }

  async lockDue(_tx: Tx, q: DueQuery): Promise<DueBatch> {
    const micros = (t: Target) => t.createdAt.getTime() * 1000;
    const due = [...this.table().values()]
      .filter(
        (t) =>
          t.organizationId === q.organizationId &&
          ENDED.has(t.status) &&
          (q.campaignId === null || t.campaignId === q.campaignId) &&
          !q.exceptCampaignIds.includes(t.campaignId) &&
          (q.after === null ||
            micros(t) > q.after.createdMicros ||
            (micros(t) === q.after.createdMicros && t.id > q.after.id)) &&
          !t.purgedParts.includes(q.part) &&
          (t.lastCallDate ?? t.createdAt).getTime() <= q.cutoff.getTime(),
      )
      .sort(byCreatedThenId)
      .slice(0, q.limit);
    const last = due[due.length - 1];
    return {
      ids: due.map((t) => t.id).sort(),
      next: due.length < q.limit ? null : { createdMicros: micros(last), id: last.id },
    };
  }

  private update(organizationId: string, ids: string[], change: (t: Target) => void): number {
    const table = this.table();
    let n = 0;
    for (const id of ids) {
      const key = targetKey(organizationId, id);
      const found = table.get(key);
      if (!found) continue;
      const t = clone(found);
      change(t);
      table.set(key, t);
      n++;
    }
    return n;
  }

  async purge(
    _tx: Tx,
    organizationId: string,
    targetIds: string[],
    parts: RetentionPart[],
    at: Date,
  ): Promise<Record<string, number>> {
    const n = this.update(organizationId, targetIds, (t) => {
      t.purgedAt = at;
      t.purgedParts = [...new Set([...t.purgedParts, ...parts])].sort();
      if (parts.includes('input_data')) {
        Object.assign(t, {
          inputData: {},
          outputData: {},
          patient: null,
          preCallData: null,
          payorApiData: null,
          preCallEhrIds: null,
          faxLinks: null,
        });
      }
      if (parts.includes('finished_targets')) {
        Object.assign(t, { phoneNumber: null, fallbackPhoneNumber: null, externalId: null });
      }
    });
    return parts.includes('input_data') || parts.includes('finished_targets') ? { targets: n } : {};
  }

  private matches(organizationId: string, key: PatientKey): Target[] {
    return [...this.table().values()]
      .filter(
        (t) =>
          t.organizationId === organizationId &&
          ('phoneNumber' in key
            ? t.phoneNumber === key.phoneNumber || t.fallbackPhoneNumber === key.phoneNumber
            : t.externalId === key.externalId),
      )
      .sort(byCreatedThenId);
  }

  async patientTargetIds(organizationId: string, key: PatientKey): Promise<string[]> {
    return this.matches(organizationId, key).map((t) => t.id);
  }

  async lockErasable(_tx: Tx, organizationId: string, targetIds: string[]): Promise<string[]> {
    return targetIds
      .filter((id) => {
        const t = this.table().get(targetKey(organizationId, id));
        return t && !IN_FLIGHT_STATUSES.includes(t.status);
      })
      .sort();
  }

  /** The organization's targets of these ids that exist, in the order asked. */
  private found(organizationId: string, targetIds: string[]): Target[] {
    return targetIds.flatMap((id) => this.table().get(targetKey(organizationId, id)) ?? []);
  }

  async patientTargets(organizationId: string, targetIds: string[]): Promise<PatientTarget[]> {
    return this.found(organizationId, targetIds).map((t) => ({
      id: t.id,
      campaignId: t.campaignId,
      externalId: t.externalId,
      phoneNumber: t.phoneNumber,
      fallbackPhoneNumber: t.fallbackPhoneNumber,
      patient: t.patient as Record<string, unknown> | null,
      inputData: t.inputData,
      outputData: t.outputData,
      status: t.status,
      category: t.category,
      resolution: t.resolution,
      createdAt: t.createdAt,
      purgedAt: t.purgedAt,
      purgedParts: t.purgedParts,
    }));
  }

  async knownTargets(
    _tx: Tx | null,
    targets: { organizationId: string; targetId: string }[],
  ): Promise<KnownTarget[]> {
    return targets.flatMap(({ organizationId, targetId }) =>
      this.found(organizationId, [targetId]).map((t) => ({
        organizationId,
        targetId,
        campaignId: t.campaignId,
        knownValues: knownValuesOf({
          externalId: t.externalId,
          phoneNumbers: [t.phoneNumber, t.fallbackPhoneNumber],
          patient: t.patient as Record<string, unknown> | null,
          inputData: t.inputData,
        }),
      })),
    );
  }
}

/**
 * `TranscriptRedactionService` on the fakes (the default pattern redactor): over `table` when the test keeps
 * its targets in a shared table, else over none (nothing is redacted: no target has a policy).
 */
export function inMemoryRedaction(table?: () => TargetTable) {
  const store = new InMemoryRetentionStore();
  const none = new Map<string, Target>();
  const targets = new InMemoryTargetData(table ?? (() => none));
  return {
    store,
    targets,
    redaction: new TranscriptRedactionService(targets, store, new PatternRedactor()),
  };
}
