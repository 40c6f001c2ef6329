import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { rowMapper, type RowOf } from '../../../common/persistence/row-of.js';
import { Tx } from '../../../common/persistence/unit-of-work.js';
import { NoRows, sqlExecutor } from '../../../database/sql.js';
import {
  MessageRepository,
  NewInboundText,
  NewOutboundText,
  SendOutcome,
} from '../application/ports/message.repository.js';
import { MESSAGE_STATUSES, statusRank } from '../domain/message.js';
import type { FollowUpContinuation, Message, MessageStatus } from '../domain/message.js';

/**
 * A `messages` row as `pg` returns it: the domain's fields in snake_case, but the bigint call log id
 * comes back as a string and the numbers and the continuation have their own column names.
 */
type MessageRow = RowOf<Omit<Message, 'callLogId' | 'to' | 'from' | 'continuation'>> & {
  call_log_id: string | null;
  to_number: string;
  from_number: string | null;
  then_outcome: FollowUpContinuation | null;
};

const COLUMNS = `id, organization_id, campaign_id, target_id, call_log_id, provider_connection_id,
  provider, direction, to_number, from_number, body, status, provider_message_id, error_code,
  error_message, keyword, then_outcome, send_after, created_at, updated_at, sent_at, settled_at`;

const messageFromRow = rowMapper<Message, MessageRow>()(
  COLUMNS,
  { callLogId: (r) => (r.call_log_id === null ? null : Number(r.call_log_id)) },
  { to_number: 'to', from_number: 'from', then_outcome: 'continuation' },
);

/** A status's rank in SQL, as `advancesStatus` ranks them (forward only). */
const RANK = (expr: string) =>
  `(CASE ${expr}::text ${MESSAGE_STATUSES.map((s) => `WHEN '${s}' THEN ${statusRank(s)}`).join(' ')} END)`;

@Injectable()
export class SqlMessageRepository extends MessageRepository {
  constructor(private readonly dataSource: DataSource) {
    super();
  }

  async insertOutbound(tx: Tx, texts: NewOutboundText[]): Promise<Message[]> {
    if (texts.length === 0) return [];
    const { rows } = await sqlExecutor(this.dataSource, tx).query<MessageRow>(
      `INSERT INTO messages (organization_id, campaign_id, target_id, call_log_id,
              provider_connection_id, direction, to_number, body, status, then_outcome, created_at,
              updated_at)
       SELECT e.organization_id, e.campaign_id, e.target_id, e.call_log_id, e.provider_connection_id,
              'outbound', e.to_number, e.body, 'queued', e.then_outcome, e.now, e.now
         FROM jsonb_to_recordset($1::jsonb) AS e(organization_id uuid, campaign_id uuid,
              target_id uuid, call_log_id bigint, provider_connection_id uuid, to_number text,
              body text, then_outcome jsonb, now timestamptz)
       RETURNING ${COLUMNS}`,
      [
        JSON.stringify(
          texts.map((t) => ({
            organization_id: t.organizationId,
            campaign_id: t.campaignId,
            target_id: t.targetId,
            call_log_id: t.callLogId,
            provider_connection_id: t.providerConnectionId,
            to_number: t.to,
            body: t.body,
            then_outcome: t.continuation,
            now: t.now.toISOString(),
          })),
        ),
      ],
    );
    return rows.map(messageFromRow);
  }

  async insertInbound(tx: Tx, t: NewInboundText): Promise<Message | null> {
    const { rows } = await sqlExecutor(this.dataSource, tx).query<MessageRow>(
      `INSERT INTO messages (organization_id, campaign_id, target_id, provider_connection_id, provider,
              provider_message_id, direction, to_number, from_number, body, status, keyword,
              created_at, updated_at, settled_at)
       VALUES ($1, $2, $3, $4, $5, $6, 'inbound', $7, $8, $9, 'received', $10, $11, $11, $11)
       ON CONFLICT (provider, provider_message_id) WHERE provider_message_id IS NOT NULL DO NOTHING
       RETURNING ${COLUMNS}`,
      [
        t.organizationId,
        t.campaignId,
        t.targetId,
        t.providerConnectionId,
        t.provider,
        t.providerMessageId,
        t.to,
        t.from,
        t.body,
        t.keyword,
        t.now.toISOString(),
      ],
    );
    return rows[0] ? messageFromRow(rows[0]) : null;
  }

  async latestOutboundTo(
    tx: Tx,
    organizationId: string,
    phoneNumber: string,
  ): Promise<Message | null> {
    const { rows } = await sqlExecutor(this.dataSource, tx).query<MessageRow>(
      `SELECT ${COLUMNS} FROM messages
        WHERE organization_id = $1 AND to_number = $2 AND direction = 'outbound'
        ORDER BY created_at DESC LIMIT 1`,
      [organizationId, phoneNumber],
    );
    return rows[0] ? messageFromRow(rows[0]) : null;
  }

  async advance(
    tx: Tx,
    provider: string,
    providerMessageId: string,
    report: { status: MessageStatus; errorCode: string | null; errorMessage: string | null },
    now: Date,
  ): Promise<Message | null> {
    // The ranks of advancesStatus: a report applies only when it moves the text forward.
    const { rows } = await sqlExecutor(this.dataSource, tx).query<MessageRow>(
      `UPDATE messages SET status = $3, error_code = coalesce($4, error_code),
              error_message = coalesce($5, error_message), updated_at = $6,
              sent_at = coalesce(sent_at, CASE WHEN $3 IN ('sent', 'delivered', 'undelivered') THEN $6::timestamptz END),
              settled_at = CASE WHEN $3 IN ('delivered', 'undelivered', 'failed') THEN $6::timestamptz END
        WHERE provider = $1 AND provider_message_id = $2 AND direction = 'outbound'
          AND ${RANK('status')} < ${RANK('$3')}
        RETURNING ${COLUMNS}`,
      [
        provider,
        providerMessageId,
        report.status,
        report.errorCode,
        report.errorMessage,
        now.toISOString(),
      ],
    );
    return rows[0] ? messageFromRow(rows[0]) : null;
  }

  async hasProviderMessage(tx: Tx, provider: string, providerMessageId: string): Promise<boolean> {
    const { rows } = await sqlExecutor(this.dataSource, tx).query<{ id: string }>(
      `SELECT id FROM messages WHERE provider = $1 AND provider_message_id = $2`,
      [provider, providerMessageId],
    );
    return rows.length > 0;
  }

  async findById(
    tx: Tx | null,
    organizationId: string | null,
    id: string,
  ): Promise<Message | null> {
    const { rows } = await sqlExecutor(this.dataSource, tx).query<MessageRow>(
      `SELECT ${COLUMNS} FROM messages WHERE id = $1 AND ($2::uuid IS NULL OR organization_id = $2)`,
      [id, organizationId],
    );
    return rows[0] ? messageFromRow(rows[0]) : null;
  }

  async listForTarget(organizationId: string, targetId: string): Promise<Message[]> {
    const { rows } = await sqlExecutor(this.dataSource, null).query<MessageRow>(
      // A reply to HELP is recorded in the instant of the text it answers: the text comes first.
      `SELECT ${COLUMNS} FROM messages WHERE organization_id = $1 AND target_id = $2
        ORDER BY created_at, direction = 'outbound', id`,
      [organizationId, targetId],
    );
    return rows.map(messageFromRow);
  }

  async claimForSending(id: string, now: Date, leaseMs: number): Promise<Message | null> {
    const { rows } = await sqlExecutor(this.dataSource, null).query<MessageRow>(
      `UPDATE messages SET sending_since = $2
        WHERE id = $1 AND status = 'queued'
          AND (sending_since IS NULL OR sending_since < $2::timestamptz - $3 * interval '1 millisecond')
        RETURNING ${COLUMNS}`,
      [id, now.toISOString(), leaseMs],
    );
    return rows[0] ? messageFromRow(rows[0]) : null;
  }

  async hold(tx: Tx, id: string, until: Date): Promise<void> {
    await sqlExecutor(this.dataSource, tx).query<NoRows>(
      `UPDATE messages SET send_after = $2, sending_since = NULL WHERE id = $1 AND status = 'queued'`,
      [id, until.toISOString()],
    );
  }

  async recordSend(tx: Tx, id: string, o: SendOutcome): Promise<Message | null> {
    const { rows } = await sqlExecutor(this.dataSource, tx).query<MessageRow>(
      `UPDATE messages SET provider = $2, provider_connection_id = $3, from_number = $4, status = $5,
              provider_message_id = $6, error_code = $7, error_message = $8, updated_at = $9,
              sent_at = CASE WHEN $5 IN ('sent', 'delivered', 'undelivered') THEN $9::timestamptz END,
              settled_at = CASE WHEN $5 IN ('delivered', 'undelivered', 'failed') THEN $9::timestamptz END,
              sending_since = NULL
        WHERE id = $1 AND status = 'queued'
        RETURNING ${COLUMNS}`,
      [
        id,
        o.provider,
        o.providerConnectionId,
        o.from,
        o.status,
        o.providerMessageId,
        o.errorCode,
        o.errorMessage,
        o.now.toISOString(),
      ],
    );
    return rows[0] ? messageFromRow(rows[0]) : null;
  }
}
