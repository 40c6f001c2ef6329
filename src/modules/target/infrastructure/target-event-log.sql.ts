import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { Tx, UnitOfWork } from '../../../common/persistence/unit-of-work.js';
import { NoRows, SqlExecutor, sqlExecutor } from '../../../database/sql.js';
import { CampaignEventListeners } from '../application/ports/campaign-event-listener.js';
import {
  EventActorType,
  EventCause,
  TargetEvent,
  TargetEventLog,
  TargetTimelineEvent,
  TimelineEntry,
  TimelinePosition,
} from '../application/ports/target-event-log.js';
import type { RowOf } from '../../../common/persistence/row-of.js';

type TargetEventRow = RowOf<Omit<TargetEvent, 'actor'>> & {
  at_micros: string;
  sort_key: string;
  actor_type: EventActorType;
  actor_id: string | null;
};

/** An event of the relayed transaction, as the listeners are told of it. */
interface RelayedEventRow extends Omit<TargetEventRow, 'at_micros' | 'sort_key'> {
  organization_id: string;
  campaign_id: string;
}

const SYSTEM_CAUSE: EventCause = { actor: { type: 'system', id: null } };

/**
 * A cause is six transaction-local settings, which the triggers on `targets` read when a statement
 * ends (each through one function: `target_event_actor()`, `target_event_reason()`, ... in
 * `targets.triggers.sql.ts`). In this order: who, why, why per target, the step payload, who per
 * target, and when targets were deleted (a deletion leaves no row to carry its time).
 */
const CAUSE_SETTINGS = [
  'calling.actor',
  'calling.reason',
  'calling.reasons',
  'calling.step_data',
  'calling.actors',
  'calling.deleted_at',
] as const;

/**
 * The values of a cause's settings, in `CAUSE_SETTINGS` order (empty: not set). `deletedAt` is the
 * time of the `deleted` events of a statement that deletes targets (the service's clock); without
 * it they take the transaction's.
 */
export function causeParams(cause: EventCause = SYSTEM_CAUSE, deletedAt?: Date): string[] {
  return [
    JSON.stringify(cause.actor),
    cause.reason ?? '',
    cause.reasonsByTarget ? JSON.stringify(cause.reasonsByTarget) : '',
    cause.stepData ? JSON.stringify(cause.stepData) : '',
    cause.actorsByTarget ? JSON.stringify(cause.actorsByTarget) : '',
    deletedAt?.toISOString() ?? '',
  ];
}

/**
 * The one way a cause is set: a one-row FROM item that sets the settings from parameters
 * `$n`..`$n+5` (see `causeParams`). Alone (`attributeChanges`) it sets them for the rest of a
 * transaction; inside a statement that has no transaction of its own around it (an edit, a delete),
 * for that statement, without a BEGIN, a SET and a COMMIT around it.
 */
export const CAUSE_FROM = (n: number) =>
  `(SELECT ${CAUSE_SETTINGS.map((name, i) => `set_config('${name}', $${n + i}::text, true)`).join(', ')}) AS cause`;

/** Sets the cause for the rest of the transaction `sql` runs in. */
export async function attributeChanges(sql: SqlExecutor, cause: EventCause): Promise<void> {
  await sql.query<NoRows>(`SELECT cause.* FROM ${CAUSE_FROM(1)}`, causeParams(cause));
}

/**
 * The sort key of an event among those of the same instant: ids zero-padded so that text order is
 * number order (`COLLATE "C"`: byte order, as JavaScript compares strings).
 */
const SORT_KEY = `('e:' || lpad(id::text, 19, '0')) COLLATE "C"`;

/**
 * The events of the current transaction, recorded after id `$1` (the newest id before its first
 * change of targets, so the primary key bounds the read to what was recorded since: no index on
 * `xact_id`). Null before the transaction has written anything: no events.
 */
const EVENTS_OF_THIS_TRANSACTION = `
  SELECT id::text AS id, organization_id, campaign_id, target_id, at, kind, status, actor_type,
         actor_id, reason, data
    FROM target_events
   WHERE id > $1::bigint AND xact_id = pg_current_xact_id_if_assigned()
   ORDER BY id`;

/**
 * Telling the in-process listeners of target events (`CampaignEventListener.onTargetEvent`). The events
 * are written by triggers on `targets`, so no application code holds them; of the ways to reach them:
 *
 * - per transaction (this one): each transaction that changes targets, when listeners are registered
 *   and only then, reads the events it recorded itself just before it commits (`target_events.xact_id`
 *   defaults to the writing transaction's id, migration 1769310000000) and hands them to the listeners
 *   in `afterCommit`, as the call and message events are. After commit and never for a rollback by
 *   construction, in the order recorded, in the process that made the change, with no state, loop or
 *   cursor; a change that has no transaction of its own is given one. Costs two reads per such
 *   transaction with listeners (the second in proportion to its events), nothing without.
 * - a relay loop reading `target_events` after a persisted cursor (events of transactions older than
 *   the snapshot's xmin): durable and at-least-once, but a cursor table, a loop with its interval and
 *   an owner among the workers, transaction id order that is not commit order for one target, and
 *   events told in a worker process rather than where they happened. The signed webhooks already are
 *   the durable route; listeners are the in-process one.
 */
@Injectable()
export class SqlTargetEventLog extends TargetEventLog {
  /** The transactions already relayed: each is read once, before it commits. */
  private readonly relayed = new WeakSet<Tx>();

  constructor(
    private readonly dataSource: DataSource,
    private readonly unitOfWork: UnitOfWork,
    private readonly listeners: CampaignEventListeners,
  ) {
    super();
  }

  async attribute(tx: Tx, cause: EventCause): Promise<void> {
    await attributeChanges(sqlExecutor(this.dataSource, tx), cause);
  }

  override async relay<T>(tx: Tx | null, change: (tx: Tx | null) => Promise<T>): Promise<T> {
    if (!this.listeners.any) return change(tx);
    if (!tx) return this.unitOfWork.run((own) => this.relay(own, change));
    if (!this.relayed.has(tx)) {
      this.relayed.add(tx);
      const sql = sqlExecutor(this.dataSource, tx);
      // Ids come from one sequence (cache 1): every event this transaction records from now on has a
      // greater id than any recorded so far, committed or not.
      const { rows } = await sql.query<{ newest: string }>(
        `SELECT coalesce(max(id), 0)::text AS newest FROM target_events`,
      );
      const after = rows[0].newest;
      this.unitOfWork.beforeCommit(tx, async () => {
        const recorded = await sql.query<RelayedEventRow>(EVENTS_OF_THIS_TRANSACTION, [after]);
        if (recorded.rows.length === 0) return;
        const events = recorded.rows.map(relayedEventFromRow);
        this.unitOfWork.afterCommit(tx, () => this.listeners.targetEvents(events));
      });
    }
    return change(tx);
  }

  async list(
    organizationId: string,
    targetId: string,
    before: TimelinePosition | null,
    limit: number,
  ): Promise<TimelineEntry[]> {
    // The (target_id, at DESC, id DESC) index gives the target's events newest first; the key decides
    // only among events of the same microsecond.
    const { rows } = await sqlExecutor(this.dataSource, null).query<TargetEventRow>(
      `SELECT id::text AS id, target_id, at, kind, status, actor_type, actor_id, reason, data,
              ((extract(epoch FROM at) * 1000000)::bigint)::text AS at_micros,
              ${SORT_KEY} AS sort_key
         FROM target_events
        WHERE target_id = $1 AND organization_id = $2
          AND ($3::bigint IS NULL
               OR at < (timestamptz 'epoch' + $3::bigint * interval '1 microsecond')
               OR (at = (timestamptz 'epoch' + $3::bigint * interval '1 microsecond') AND ${SORT_KEY} < $4::text COLLATE "C"))
        ORDER BY at DESC, id DESC
        LIMIT $5`,
      [targetId, organizationId, before?.atMicros ?? null, before?.key ?? null, limit],
    );
    return rows.map((r) => ({
      event: eventFromRow(r),
      position: { atMicros: Number(r.at_micros), key: r.sort_key },
    }));
  }
}

function eventFromRow(r: Omit<TargetEventRow, 'at_micros' | 'sort_key'>): TargetEvent {
  return {
    id: r.id,
    targetId: r.target_id,
    at: r.at,
    kind: r.kind,
    status: r.status,
    actor: { type: r.actor_type, id: r.actor_id },
    reason: r.reason,
    data: r.data,
  };
}

function relayedEventFromRow(r: RelayedEventRow): TargetTimelineEvent {
  return { ...eventFromRow(r), organizationId: r.organization_id, campaignId: r.campaign_id };
}
