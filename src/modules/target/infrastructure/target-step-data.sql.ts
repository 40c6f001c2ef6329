import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { Tx } from '../../../common/persistence/unit-of-work.js';
import { columnList, sqlExecutor } from '../../../database/sql.js';
import { ehrEventKey } from '../domain/target.js';
import {
  AppliedUpdate,
  ReceivedStep,
  StepDataUpdate,
  StepEventRecord,
  TargetStepData,
  StepScope,
  TargetRef,
} from '../application/ports/target-step-data.js';
import {
  stepEventFromRow,
  TARGET_STEP_EVENT_COLUMNS,
  TargetStepEventRow,
} from './target-step-event.row.js';
import { TargetEventLog } from '../application/ports/target-event-log.js';

/**
 * One statement merges a whole batch: the updates travel as one jsonb array, are matched to targets by
 * id (the primary key is (id, organization_id)) or external id (the campaign's unique index), folded per target in request order by
 * `step_jsonb_merge`, applied, and written to the history, all inside data-modifying CTEs.
 */
const MERGE_STEP_DATA = `
  WITH input AS (
    SELECT u.i, u.tid, u.xid, u.d
    FROM jsonb_to_recordset($3::jsonb) AS u(i int, tid uuid, xid text, d jsonb)
  ),
  matched AS (
    -- LATERAL keeps the plan an index lookup per update (primary key, or the campaign's external id
    -- index) whatever the planner guesses about the recordset's size or the campaign's statistics.
    SELECT u.i, t.id, u.d
    FROM input u
    JOIN LATERAL (
      SELECT id FROM targets
      WHERE id = u.tid AND campaign_id = $2::uuid AND organization_id = $1::uuid
        AND (u.xid IS NULL OR external_id = u.xid)
      UNION ALL
      SELECT id FROM targets
      WHERE u.tid IS NULL AND campaign_id = $2::uuid AND external_id = u.xid AND organization_id = $1::uuid
    ) t ON true
  ),
  merged AS (
    -- In id order, so concurrent batches lock their common targets in the same order.
    SELECT id, step_jsonb_merge(d ORDER BY i) AS d FROM matched GROUP BY id ORDER BY id
  ),
  updated AS (
    UPDATE targets t SET input_data = t.input_data || m.d, updated_at = $7::timestamptz
    -- A target id is unique within its organization only.
    FROM merged m WHERE t.id = m.id AND t.organization_id = $1::uuid
    RETURNING t.id, (t.status = 'Waiting' AND t.current_step = $5::text) IS TRUE AS waiting
  ),
  history AS (
    INSERT INTO target_step_events
      (organization_id, campaign_id, target_id, kind, friendly_id, event_type, data, api_key_id, received_at)
    SELECT $1::uuid, $2::uuid, m.id, $4::text, $5::text, $6::text, m.d, $8::uuid, $7::timestamptz
    FROM matched m JOIN updated u ON u.id = m.id ORDER BY m.i
  )
  -- Joined with the UPDATE's output: a target deleted since the snapshot is neither reported as updated
  -- nor given a history row.
  SELECT m.i AS index, m.id AS target_id, u.waiting FROM matched m JOIN updated u ON u.id = m.id`;

const RECORD_EHR_EVENT = `
  WITH target AS (
    SELECT id FROM targets
    WHERE organization_id = $1::uuid AND campaign_id = $2::uuid
      AND ($3::uuid IS NULL OR id = $3::uuid)
      AND ($4::text IS NULL OR external_id = $4::text)
    LIMIT 1
  ),
  event AS (
    INSERT INTO target_step_events
      (organization_id, campaign_id, target_id, kind, friendly_id, event_type, data, api_key_id, received_at)
    SELECT $1::uuid, $2::uuid, target.id, 'ehr_event', $5::text, $6::text, $7::jsonb, $8::uuid, $9::timestamptz
    FROM target
    RETURNING id, target_id
  )
  UPDATE targets t SET
    input_data = t.input_data || $7::jsonb,
    pre_call_ehr_ids = jsonb_set(
      coalesce(t.pre_call_ehr_ids, '{}'::jsonb),
      ARRAY[$10::text],
      coalesce(t.pre_call_ehr_ids -> $10::text, '[]'::jsonb) || jsonb_build_array(event.id::text)
    ),
    updated_at = $9::timestamptz
  FROM event WHERE t.id = event.target_id AND t.organization_id = $1::uuid
  RETURNING event.id AS event_id, t.id AS target_id`;

/**
 * Step data written into targets (`input_data`, `pre_call_ehr_ids`) with the history rows of
 * `target_step_events`, each request in one statement, through `TargetEventLog.relay` as every write
 * to `targets` goes (the listeners are told of the events it causes).
 */
@Injectable()
export class SqlTargetStepData extends TargetStepData {
  constructor(
    private readonly dataSource: DataSource,
    private readonly events: TargetEventLog,
  ) {
    super();
  }

  async mergeStepData(
    tx: Tx,
    scope: StepScope,
    received: ReceivedStep,
    updates: StepDataUpdate[],
  ): Promise<AppliedUpdate[]> {
    if (updates.length === 0) return [];
    return this.events.relay(tx, async () => {
      const payload = JSON.stringify(
        updates.map((u) => ({
          i: u.index,
          tid: u.targetId ?? null,
          xid: u.externalId ?? null,
          d: u.data,
        })),
      );
      const { rows } = await sqlExecutor(this.dataSource, tx).query<{
        index: number;
        target_id: string;
        waiting: boolean;
      }>(MERGE_STEP_DATA, [
        scope.organizationId,
        scope.campaignId,
        payload,
        received.kind,
        received.friendlyId,
        received.eventType,
        received.receivedAt,
        received.apiKeyId,
      ]);
      return rows
        .map((r) => ({ index: r.index, targetId: r.target_id, waiting: r.waiting }))
        .sort((a, b) => a.index - b.index);
    });
  }

  async recordEhrEvent(
    tx: Tx,
    scope: StepScope,
    received: ReceivedStep,
    ref: TargetRef,
    data: Record<string, unknown>,
  ): Promise<{ eventId: string; targetId: string } | null> {
    if (ref.targetId == null && ref.externalId == null) return null;
    return this.events.relay(tx, async () => {
      const { rows } = await sqlExecutor(this.dataSource, tx).query<{
        event_id: string;
        target_id: string;
      }>(RECORD_EHR_EVENT, [
        scope.organizationId,
        scope.campaignId,
        ref.targetId ?? null,
        ref.externalId ?? null,
        received.friendlyId,
        received.eventType,
        JSON.stringify(data),
        received.apiKeyId,
        received.receivedAt,
        ehrEventKey(received.eventType),
      ]);
      return rows[0] ? { eventId: rows[0].event_id, targetId: rows[0].target_id } : null;
    });
  }

  async history(organizationId: string, targetId: string): Promise<StepEventRecord[]> {
    const { rows } = await sqlExecutor(this.dataSource, null).query<TargetStepEventRow>(
      `SELECT ${columnList(TARGET_STEP_EVENT_COLUMNS)} FROM target_step_events
        WHERE organization_id = $1::uuid AND target_id = $2::uuid
        ORDER BY seq`,
      [organizationId, targetId],
    );
    return rows.map(stepEventFromRow);
  }
}
