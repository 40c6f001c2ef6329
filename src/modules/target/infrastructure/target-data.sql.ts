import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { rowMapper, type RowOf } from '../../../common/persistence/row-of.js';
import type { Tx } from '../../../common/persistence/unit-of-work.js';
import { NoRows, sqlExecutor } from '../../../database/sql.js';
import {
  DueBatch,
  DueQuery,
  KnownTarget,
  TargetData,
} from '../../retention/application/ports/patient-data-holders.js';
import type { PatientTarget } from '../../retention/domain/patient-record.js';
import { knownValuesOf } from '../../retention/domain/redaction.js';
import type { RetentionPart } from '../../retention/domain/retention-policy.js';
import type { PatientKey } from '../../retention/domain/retention-run.js';
import { EPOCH_PLUS_MICROS, MICROS_OF } from './target-repository.sql.js';

/** Targets in a call are never purged under it: the call's end would write its data back. */
const ENDED = `('Finished', 'Failed')`;

/** When the target's last call ended; its creation when it was never called. */
const LAST_ACTIVITY = `coalesce((SELECT max(coalesce(c.ended_at, c.started_at)) FROM call_logs c
                                  WHERE c.target_id = t.id AND c.organization_id = t.organization_id),
                                 t.created_at)`;

/** What each part blanks on the target row itself. */
const TARGET_SET: Partial<Record<RetentionPart, string>> = {
  input_data: `input_data = '{}'::jsonb, output_data = '{}'::jsonb, patient = NULL,
               pre_call_data = NULL, payor_api_data = NULL, pre_call_ehr_ids = NULL, fax_links = NULL`,
  finished_targets: `phone_number = NULL, fallback_phone_number = NULL, external_id = NULL,
                     phone_operating_hours = NULL, fallback_operating_hours = NULL`,
};

/** An UPDATE of a table's rows of the targets ($1 organization, $2 target ids). */
const targetRows = (table: string, set: string, and = '') => ({
  table,
  sql: `UPDATE ${table} SET ${set} WHERE organization_id = $1 AND target_id = ANY($2::uuid[])${and}`,
});

/** The same of the import staging rows, whose organization is their import's. */
const importRows = (set: string) => ({
  table: 'target_import_rows',
  sql: `UPDATE target_import_rows r SET ${set}
          FROM target_imports i
         WHERE i.id = r.import_id AND i.organization_id = $1 AND r.target_id = ANY($2::uuid[])`,
});

/** One statement per other table of this module a part was copied to. */
const PURGES: Partial<Record<RetentionPart, { table: string; sql: string }[]>> = {
  input_data: [
    targetRows('target_step_events', `data = '{}'::jsonb`),
    targetRows('target_events', `data = '{}'::jsonb`, ` AND kind = 'step_data'`),
    importRows('draft = NULL'),
  ],
  finished_targets: [importRows('external_id = NULL')],
};

const PATIENT_TARGET_COLUMNS = `id, campaign_id, external_id, phone_number, fallback_phone_number,
  patient, input_data, output_data, status, category, resolution, created_at, purged_at, purged_parts`;
const patientTargetFromRow = rowMapper<PatientTarget>()(PATIENT_TARGET_COLUMNS);

/** The retention module's view of the target module's tables (docs/compliance.md, "Retention"). */
@Injectable()
export class SqlTargetData extends TargetData {
  constructor(private readonly dataSource: DataSource) {
    super();
  }

  async lockDue(tx: Tx, q: DueQuery): Promise<DueBatch> {
    const sql = sqlExecutor(this.dataSource, tx);
    // Found in creation order (targets_retention_idx), unlocked; then locked in id order with the
    // conditions a concurrent change could have broken checked again on the locked rows.
    const { rows: due } = await sql.query<{ id: string; created_micros: string }>(
      `SELECT t.id, ${MICROS_OF('t.created_at')}::text AS created_micros FROM targets t
        WHERE t.organization_id = $1 AND t.status IN ${ENDED}
          AND ($2::uuid IS NULL OR t.campaign_id = $2::uuid)
          AND NOT (t.campaign_id = ANY($3::uuid[]))
          AND ($4::bigint IS NULL OR (t.created_at, t.id) > (${EPOCH_PLUS_MICROS('$4')}, $5::uuid))
          AND NOT ($6::text = ANY(t.purged_parts))
          AND ${LAST_ACTIVITY} <= $7
        ORDER BY t.created_at, t.id LIMIT $8`,
      [
        q.organizationId,
        q.campaignId,
        q.exceptCampaignIds,
        q.after?.createdMicros.toString() ?? null,
        q.after?.id ?? null,
        q.part,
        q.cutoff,
        q.limit,
      ],
    );
    if (due.length === 0) return { ids: [], next: null };
    const { rows: locked } = await sql.query<{ id: string }>(
      `SELECT id FROM targets
        WHERE organization_id = $1 AND id = ANY($2::uuid[]) AND status IN ${ENDED}
          AND NOT ($3::text = ANY(purged_parts))
        ORDER BY id FOR UPDATE`,
      [q.organizationId, due.map((r) => r.id), q.part],
    );
    const last = due[due.length - 1];
    return {
      ids: locked.map((r) => r.id),
      next:
        due.length < q.limit ? null : { createdMicros: Number(last.created_micros), id: last.id },
    };
  }

  async purge(
    tx: Tx,
    organizationId: string,
    targetIds: string[],
    parts: RetentionPart[],
    at: Date,
  ): Promise<Record<string, number>> {
    const sql = sqlExecutor(this.dataSource, tx);
    const changed: Record<string, number> = {};
    // The timeline's 'input_edited' event (written by the trigger) says why the input data went.
    await sql.query<NoRows>(`SELECT set_config('calling.reason', $1, true)`, [
      `retention purge: ${parts.join(', ')}`,
    ]);
    // One UPDATE of each target row for the blanking and the marking: the blanking changes indexed
    // columns (the patient's names), so each version of the row is a new entry in every index of
    // targets, and a second UPDATE in the same transaction would also check both foreign keys again.
    const blank = parts.flatMap((part) => (TARGET_SET[part] ? [TARGET_SET[part]] : []));
    const { rowCount } = await sql.query<NoRows>(
      `UPDATE targets
          SET ${[...blank, ''].join(', ')}purged_at = $3,
              purged_parts = ARRAY(SELECT DISTINCT p FROM unnest(purged_parts || $4::text[]) p ORDER BY p)
        WHERE organization_id = $1 AND id = ANY($2::uuid[])`,
      [organizationId, targetIds, at, parts],
    );
    if (blank.length > 0) changed.targets = rowCount;
    for (const part of parts) {
      for (const statement of PURGES[part] ?? []) {
        const { rowCount } = await sql.query<NoRows>(statement.sql, [organizationId, targetIds]);
        changed[statement.table] = (changed[statement.table] ?? 0) + rowCount;
      }
    }
    await sql.query<NoRows>(`SELECT set_config('calling.reason', '', true)`);
    return changed;
  }

  async patientTargetIds(organizationId: string, key: PatientKey): Promise<string[]> {
    const k =
      'phoneNumber' in key
        ? { where: `(t.phone_number = $2 OR t.fallback_phone_number = $2)`, value: key.phoneNumber }
        : { where: `t.external_id = $2`, value: key.externalId };
    const { rows } = await sqlExecutor(this.dataSource, null).query<{ id: string }>(
      `SELECT t.id FROM targets t WHERE t.organization_id = $1 AND ${k.where}
        ORDER BY t.created_at, t.id`,
      [organizationId, k.value],
    );
    return rows.map((r) => r.id);
  }

  async lockErasable(tx: Tx, organizationId: string, targetIds: string[]): Promise<string[]> {
    const { rows } = await sqlExecutor(this.dataSource, tx).query<{ id: string }>(
      `SELECT id FROM targets
        WHERE organization_id = $1 AND id = ANY($2::uuid[])
          AND status NOT IN ('In Progress', 'Post-processing')
        ORDER BY id FOR UPDATE`,
      [organizationId, targetIds],
    );
    return rows.map((r) => r.id);
  }

  async patientTargets(organizationId: string, targetIds: string[]): Promise<PatientTarget[]> {
    const { rows } = await sqlExecutor(this.dataSource, null).query<RowOf<PatientTarget>>(
      `SELECT ${PATIENT_TARGET_COLUMNS}
         FROM targets WHERE organization_id = $1 AND id = ANY($2::uuid[])
        ORDER BY created_at, id`,
      [organizationId, targetIds],
    );
    return rows.map(patientTargetFromRow);
  }

  async knownTargets(
    tx: Tx | null,
    targets: { organizationId: string; targetId: string }[],
  ): Promise<KnownTarget[]> {
    if (targets.length === 0) return [];
    const { rows } = await sqlExecutor(this.dataSource, tx).query<{
      id: string;
      organization_id: string;
      campaign_id: string;
      external_id: string | null;
      phone_number: string | null;
      fallback_phone_number: string | null;
      patient: Record<string, unknown> | null;
      input_data: Record<string, unknown> | null;
    }>(
      `SELECT t.id, t.organization_id, t.campaign_id, t.external_id, t.phone_number,
              t.fallback_phone_number, t.patient, t.input_data
         FROM unnest($1::uuid[], $2::uuid[]) AS k(organization_id, id)
         JOIN targets t ON t.organization_id = k.organization_id AND t.id = k.id`,
      [targets.map((t) => t.organizationId), targets.map((t) => t.targetId)],
    );
    return rows.map((r) => ({
      organizationId: r.organization_id,
      targetId: r.id,
      campaignId: r.campaign_id,
      knownValues: knownValuesOf({
        externalId: r.external_id,
        phoneNumbers: [r.phone_number, r.fallback_phone_number],
        patient: r.patient,
        inputData: r.input_data,
      }),
    }));
  }
}
