import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { Tx } from '../../../common/persistence/unit-of-work.js';
import { NoRows, SqlExecutor, sqlExecutor } from '../../../database/sql.js';
import {
  EventActorType,
  EventCause,
  TargetEventLog,
  TimelineEntry,
  TimelineKind,
  TimelinePosition,
} from '../application/ports/target-event-log.js';
import type { TargetStatus } from '../domain/target.js';

interface TargetEventRow {
  id: string;
  target_id: string;
  at: Date;
  at_micros: string;
  sort_key: string;
  kind: TimelineKind;
  status: TargetStatus | null;
  actor_type: EventActorType;
  actor_id: string | null;
  reason: string;
  data: Record<string, unknown>;
}

const SYSTEM_CAUSE: EventCause = { actor: { type: 'system', id: null } };

/**
 * A cause is five transaction-local settings, which the triggers on `targets` read when a statement
 * ends (each through one function: `target_event_actor()`, `target_event_reason()`, ... in
 * `targets.triggers.sql.ts`). In this order: who, why, why per target, the step payload, who per target.
 */
const CAUSE_SETTINGS = [
  'calling.actor',
  'calling.reason',
  'calling.reasons',
  'calling.step_data',
  'calling.actors',
] as const;

/** The values of a cause's settings, in `CAUSE_SETTINGS` order (empty: not set). */
export function causeParams(cause: EventCause = SYSTEM_CAUSE): string[] {
  return [
    JSON.stringify(cause.actor),
    cause.reason ?? '',
    cause.reasonsByTarget ? JSON.stringify(cause.reasonsByTarget) : '',
    cause.stepData ? JSON.stringify(cause.stepData) : '',
    cause.actorsByTarget ? JSON.stringify(cause.actorsByTarget) : '',
  ];
}

/**
 * The one way a cause is set: a one-row FROM item that sets the settings from parameters
 * `$n`..`$n+4` (see `causeParams`). Alone (`attributeChanges`) it sets them for the rest of a
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

@Injectable()
export class SqlTargetEventLog extends TargetEventLog {
  constructor(private readonly dataSource: DataSource) {
    super();
  }

  async attribute(tx: Tx, cause: EventCause): Promise<void> {
    await attributeChanges(sqlExecutor(this.dataSource, tx), cause);
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
      event: {
        id: r.id,
        targetId: r.target_id,
        at: r.at,
        kind: r.kind,
        status: r.status,
        actor: { type: r.actor_type, id: r.actor_id },
        reason: r.reason,
        data: r.data,
      },
      position: { atMicros: Number(r.at_micros), key: r.sort_key },
    }));
  }
}
