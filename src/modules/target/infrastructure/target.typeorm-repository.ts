import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { ConflictError } from '../../../common/errors/domain-errors';
import { Tx } from '../../../common/persistence/unit-of-work';
import { sqlExecutor } from '../../../database/sql';
import {
  DeleteOutcome,
  TargetListFilter,
  TargetPage,
  TargetRepository,
} from '../application/ports/target.repository';
import { NewTarget } from '../domain/new-targets';
import { IN_FLIGHT_STATUSES, NOT_STARTED_STATUSES, Target } from '../domain/target';
import { notifyTargetsDue } from './target-transitions.sql-adapter';
import { targetFromRow } from './target.row';

const UNIQUE_VIOLATION = '23505';
const EXTERNAL_ID_KEY = 'targets_campaign_external_id_key';

/** Set-based SQL over the `targets` table; every batch is one statement. */
@Injectable()
export class TypeOrmTargetRepository extends TargetRepository {
  constructor(private readonly dataSource: DataSource) {
    super();
  }

  async findExistingExternalIds(
    tx: Tx | null,
    campaignId: string,
    externalIds: string[],
  ): Promise<Set<string>> {
    if (externalIds.length === 0) return new Set();
    const { rows } = await sqlExecutor(this.dataSource, tx).query<{ external_id: string }>(
      `SELECT external_id FROM targets WHERE campaign_id = $1 AND external_id = ANY($2::text[])`,
      [campaignId, externalIds],
    );
    return new Set(rows.map((r) => r.external_id));
  }

  async findExistingIds(tx: Tx | null, ids: string[]): Promise<Set<string>> {
    if (ids.length === 0) return new Set();
    const { rows } = await sqlExecutor(this.dataSource, tx).query<{ id: string }>(
      `SELECT id FROM targets WHERE id = ANY($1::uuid[])`,
      [ids],
    );
    return new Set(rows.map((r) => r.id));
  }

  async insertMany(
    tx: Tx,
    targets: NewTarget[],
    options: { now: Date; skipTakenExternalIds: boolean },
  ): Promise<string[]> {
    if (targets.length === 0) return [];
    const records = targets.map((t, ord) => ({
      ord,
      id: t.id,
      organization_id: t.organizationId,
      campaign_id: t.campaignId,
      external_id: t.externalId,
      phone_number: t.phoneNumber,
      phone_operating_hours: t.phoneOperatingHours,
      fallback_phone_number: t.fallbackPhoneNumber,
      fallback_operating_hours: t.fallbackOperatingHours,
      patient: t.patient,
      pre_call_data: t.preCallData,
      input_data: t.inputData,
      status: t.status,
      current_step: t.currentStep,
      scheduled_time: t.scheduledTime?.toISOString() ?? null,
    }));
    const onConflict = options.skipTakenExternalIds
      ? `ON CONFLICT (campaign_id, external_id) WHERE external_id IS NOT NULL DO NOTHING`
      : '';
    try {
      const { rows } = await sqlExecutor(this.dataSource, tx).query<{ id: string }>(
        `INSERT INTO targets (
           id, organization_id, campaign_id, external_id, phone_number, phone_operating_hours,
           fallback_phone_number, fallback_operating_hours, patient, pre_call_data, input_data, output_data,
           status, current_step, scheduled_time, attempts, created_at, updated_at)
         SELECT r.id, r.organization_id, r.campaign_id, r.external_id, r.phone_number, r.phone_operating_hours,
                r.fallback_phone_number, r.fallback_operating_hours, r.patient, r.pre_call_data, r.input_data,
                '{}'::jsonb, r.status, r.current_step, r.scheduled_time, 0,
                $2::timestamptz + r.ord * interval '1 microsecond', $2::timestamptz
         FROM jsonb_to_recordset($1::jsonb) AS r(
           ord integer, id uuid, organization_id uuid, campaign_id uuid, external_id text,
           phone_number text, phone_operating_hours jsonb, fallback_phone_number text,
           fallback_operating_hours jsonb, patient jsonb, pre_call_data jsonb, input_data jsonb,
           status text, current_step text, scheduled_time timestamptz)
         ORDER BY r.ord
         ${onConflict}
         RETURNING id`,
        [JSON.stringify(records), options.now],
      );
      // Launched targets are due now: wake the calling engine's dispatchers when this commits.
      if (rows.length > 0 && targets.some((t) => t.status === 'Scheduled')) {
        await notifyTargetsDue(sqlExecutor(this.dataSource, tx));
      }
      return rows.map((r) => r.id);
    } catch (error) {
      throw toConflict(error) ?? error;
    }
  }

  async findById(organizationId: string, id: string): Promise<Target | null> {
    const { rows } = await sqlExecutor(this.dataSource, null).query(
      `SELECT * FROM targets WHERE id = $1 AND organization_id = $2`,
      [id, organizationId],
    );
    return rows.length > 0 ? targetFromRow(rows[0]) : null;
  }

  async mergeInputData(
    organizationId: string,
    id: string,
    patch: Record<string, unknown>,
    options: { onlyIfNotStarted: boolean; now: Date },
  ): Promise<Target | null> {
    const { rows } = await sqlExecutor(this.dataSource, null).query(
      `UPDATE targets SET input_data = input_data || $3::jsonb, updated_at = $5
       WHERE id = $1 AND organization_id = $2
         AND (NOT $4::boolean OR (status = ANY($6::text[]) AND attempts = 0
                                  AND coalesce(cardinality(call_log_ids), 0) = 0))
       RETURNING *`,
      [
        id,
        organizationId,
        JSON.stringify(patch),
        options.onlyIfNotStarted,
        options.now,
        NOT_STARTED_STATUSES,
      ],
    );
    return rows.length > 0 ? targetFromRow(rows[0]) : null;
  }

  async deleteUnlessInFlight(
    organizationId: string,
    campaignId: string,
    ids: string[],
  ): Promise<DeleteOutcome> {
    // One statement. The rows are locked first: a row a dispatcher is moving to In Progress is read
    // again once that commits (FOR UPDATE sees the latest version), and both lists come from the
    // locked rows, so a target that is starting its call is reported in flight, never missing.
    const { rows } = await sqlExecutor(this.dataSource, null).query<{
      id: string;
      deleted: boolean;
    }>(
      `WITH locked AS (
         SELECT id, status FROM targets
         WHERE organization_id = $1 AND campaign_id = $2 AND id = ANY($3::uuid[])
         FOR UPDATE),
       gone AS (
         DELETE FROM targets t USING locked l
         WHERE t.id = l.id AND NOT (l.status = ANY($4::text[]))
         RETURNING t.id)
       SELECT l.id, NOT (l.status = ANY($4::text[])) AS deleted FROM locked l`,
      [organizationId, campaignId, ids, IN_FLIGHT_STATUSES],
    );
    return {
      deleted: rows.filter((r) => r.deleted).map((r) => r.id),
      inFlight: rows.filter((r) => !r.deleted).map((r) => r.id),
    };
  }

  async list(
    organizationId: string,
    campaignId: string,
    filter: TargetListFilter,
    page: { offset: number; limit: number },
  ): Promise<TargetPage> {
    const params: unknown[] = [campaignId, organizationId];
    const where = ['campaign_id = $1', 'organization_id = $2'];
    const add = (condition: string, value: unknown) => {
      params.push(value);
      where.push(condition.replace('?', `$${params.length}`));
    };
    // Only the filters given become conditions, so the planner sees plain predicates for the indexes.
    if (filter.status !== undefined) add('status = ?', filter.status);
    if (filter.createdFrom) add('created_at >= ?', filter.createdFrom);
    // Bounds are inclusive to the millisecond (JS dates); rows carry microseconds (see date-bounds).
    if (filter.createdTo)
      add("created_at < ?::timestamptz + interval '1 millisecond'", filter.createdTo);
    if (filter.lastCallFrom) add('last_call_date >= ?', filter.lastCallFrom);
    if (filter.lastCallTo)
      add("last_call_date < ?::timestamptz + interval '1 millisecond'", filter.lastCallTo);
    const sql = sqlExecutor(this.dataSource, null);
    const condition = where.join(' AND ');
    const [{ rows: count }, { rows }] = await Promise.all([
      sql.query<{ total: string }>(
        `SELECT count(*) AS total FROM targets WHERE ${condition}`,
        params,
      ),
      sql.query(
        `SELECT * FROM targets WHERE ${condition} ORDER BY created_at, id
         LIMIT $${params.length + 1} OFFSET $${params.length + 2}`,
        [...params, page.limit, String(page.offset)],
      ),
    ]);
    return { targets: rows.map(targetFromRow), total: Number(count[0].total) };
  }
}

function toConflict(error: unknown): ConflictError | null {
  const e = error as {
    code?: string;
    constraint?: string;
    driverError?: { code?: string; constraint?: string };
  };
  const code = e?.driverError?.code ?? e?.code;
  if (code !== UNIQUE_VIOLATION) return null;
  const constraint = e?.driverError?.constraint ?? e?.constraint;
  return new ConflictError(
    constraint === EXTERNAL_ID_KEY
      ? 'A target with one of these external ids was added to the campaign meanwhile'
      : 'A target with one of these ids already exists',
  );
}
