import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { isUuid } from '../../../common/ids/canonical-uuid.js';
import { poolOf } from '../../../database/data-source.options.js';
import { columnList, pageWithTotal, sqlExecutor } from '../../../database/sql.js';
import { type AuditEvent, nextInChain } from '../domain/audit-event.js';
import {
  AuditEventQuery,
  AuditEventStore,
  NewAuditEvent,
} from '../application/ports/audit-event.store.js';
import { flatAuditEvent } from '../domain/audit-event-fields.js';
import { AUDIT_EVENT_COLUMNS, auditEventFromRow, AuditEventRow } from './audit-event.row.js';

const COLUMNS = columnList(AUDIT_EVENT_COLUMNS);

/** The rows of a batch, as one JSON array (`$1`), into the table. */
const INSERT_FROM_JSON = `INSERT INTO audit_events (organization_id, seq, occurred_at, actor_kind,
    actor_id, actor_name, actor_role, action, resource_type, resource_id, campaign_id, resource_ids,
    outcome, client_address, request_id, changed_fields, changes, detail, prev_hash, hash)
  SELECT r.organization_id, r.seq, r.occurred_at, r.actor_kind, r.actor_id, r.actor_name,
         r.actor_role, r.action, r.resource_type, r.resource_id, r.campaign_id,
         ARRAY(SELECT jsonb_array_elements_text(r.resource_ids)), r.outcome, r.client_address,
         r.request_id, ARRAY(SELECT jsonb_array_elements_text(r.changed_fields)), r.changes,
         r.detail, r.prev_hash, r.hash
    FROM jsonb_to_recordset($1::jsonb) AS r(organization_id uuid, seq bigint,
         occurred_at timestamptz, actor_kind text, actor_id text, actor_name text, actor_role text,
         action text, resource_type text, resource_id text, campaign_id uuid, resource_ids jsonb,
         outcome text, client_address text, request_id text, changed_fields jsonb, changes jsonb,
         detail jsonb, prev_hash text, hash text)`;

@Injectable()
export class SqlAuditEventStore extends AuditEventStore {
  constructor(private readonly dataSource: DataSource) {
    super();
  }

  private get sql() {
    return sqlExecutor(this.dataSource, null);
  }

  /**
   * Two round trips for a whole batch, as every request waits for its event: (1) BEGIN, each
   * organization's lock and then its chain head, (2) the insert and COMMIT. Several statements in
   * one simple query, so the ids are inlined, each checked to be a UUID first; in READ COMMITTED
   * each statement reads a new snapshot, so the head is read after the lock is held and sees what
   * the previous holder committed. Locks are taken in id order: two batches never wait on each
   * other in a cycle.
   */
  async append(events: NewAuditEvent[]): Promise<void> {
    if (events.length === 0) return;
    const organizations = [...new Set(events.map((e) => e.organizationId))].sort();
    for (const o of organizations) {
      if (!isUuid(o)) throw new Error(`not an organization id: ${JSON.stringify(o)}`);
    }
    const client = await poolOf(this.dataSource).connect();
    try {
      const results = (await client.query(
        'BEGIN;' +
          organizations
            .map(
              (o) =>
                `SELECT pg_advisory_xact_lock(hashtextextended('audit_events:${o}', 0));` +
                `SELECT seq, hash FROM audit_events WHERE organization_id = '${o}'` +
                ` ORDER BY seq DESC LIMIT 1;`,
            )
            .join(''),
      )) as unknown as { rows: { seq: string; hash: string }[] }[];
      const head = new Map<string, { seq: number; hash: string } | null>(
        organizations.map((o, i) => {
          const [last] = results[2 + 2 * i].rows;
          return [o, last ? { seq: Number(last.seq), hash: last.hash } : null];
        }),
      );
      const rows = events.map((e) => {
        const event = nextInChain(e, head.get(e.organizationId) ?? null);
        head.set(e.organizationId, { seq: event.seq, hash: event.hash });
        return {
          ...flatAuditEvent(event),
          organization_id: event.organizationId,
          occurred_at: event.occurredAt.toISOString(),
        };
      });
      // One statement for the whole batch, whatever its size, and the commit with it.
      await client.query(
        `${INSERT_FROM_JSON.replace('$1', client.escapeLiteral(JSON.stringify(rows)))}; COMMIT`,
      );
    } catch (err) {
      // A connection that cannot even roll back is closed rather than returned to the pool.
      const broken = await client.query('ROLLBACK').then(
        () => false,
        () => true,
      );
      client.release(broken);
      throw err;
    }
    client.release();
  }

  async page(query: AuditEventQuery, offset: number, limit: number) {
    const { where, params } = filters(query);
    const { rows, total } = await pageWithTotal<AuditEventRow>(this.sql, {
      columns: AUDIT_EVENT_COLUMNS,
      from: 'audit_events',
      where,
      orderBy: 'seq',
      params,
      offset,
      limit,
    });
    return { events: rows.map(auditEventFromRow), total };
  }

  async *all(query: AuditEventQuery, batchSize: number): AsyncIterable<AuditEvent[]> {
    const { where, params } = filters(query);
    let after = 0;
    for (;;) {
      const { rows } = await this.sql.query<AuditEventRow>(
        `SELECT ${COLUMNS} FROM audit_events
          WHERE ${where} AND seq > $${params.length + 1}
          ORDER BY seq LIMIT $${params.length + 2}`,
        [...params, after, batchSize],
      );
      if (rows.length === 0) return;
      yield rows.map(auditEventFromRow);
      after = Number(rows[rows.length - 1].seq);
      if (rows.length < batchSize) return;
    }
  }

  async chainAfter(organizationId: string, afterSeq: number, limit: number) {
    const { rows } = await this.sql.query<AuditEventRow>(
      `SELECT ${COLUMNS} FROM audit_events
        WHERE organization_id = $1 AND seq > $2 ORDER BY seq LIMIT $3`,
      [organizationId, afterSeq, limit],
    );
    return rows.map(auditEventFromRow);
  }

  async organizationsWithEvents(): Promise<string[]> {
    const { rows } = await this.sql.query<{ organization_id: string }>(
      `SELECT DISTINCT organization_id FROM audit_events ORDER BY organization_id`,
    );
    return rows.map((r) => r.organization_id);
  }
}

/** The WHERE of a query (always one organization's events) and its parameters. */
function filters(q: AuditEventQuery): { where: string; params: unknown[] } {
  const params: unknown[] = [q.organizationId];
  const clauses = ['organization_id = $1'];
  const add = (clause: (n: string) => string, value: unknown) => {
    params.push(value);
    clauses.push(clause(`$${params.length}`));
  };
  if (q.actorId) add((n) => `actor_id = ${n}`, q.actorId);
  if (q.action) add((n) => `action = ${n}`, q.action);
  if (q.resourceType) add((n) => `resource_type = ${n}`, q.resourceType);
  if (q.resourceId) {
    add((n) => `(resource_id = ${n} OR resource_ids @> ARRAY[${n}::text])`, q.resourceId);
  }
  if (q.campaignId) add((n) => `campaign_id = ${n}::uuid`, q.campaignId);
  if (q.from) add((n) => `occurred_at >= ${n}`, q.from);
  if (q.to) add((n) => `occurred_at < ${n}`, q.to);
  return { where: clauses.join(' AND '), params };
}
