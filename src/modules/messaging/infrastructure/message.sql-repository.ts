import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { Tx } from '../../../common/persistence/unit-of-work.js';
import { sqlExecutor } from '../../../database/sql.js';
import {
  MessageRepository,
  NewOutboundText,
  SendOutcome,
} from '../application/ports/message.repository.js';
import type {
  FollowUpContinuation,
  Message,
  MessageDirection,
  MessageStatus,
} from '../domain/message.js';

/** A `messages` row as `pg` returns it. */
interface MessageRow {
  id: string;
  organization_id: string;
  campaign_id: string | null;
  target_id: string | null;
  call_log_id: string | null;
  provider_connection_id: string | null;
  provider: string | null;
  direction: MessageDirection;
  to_number: string;
  from_number: string | null;
  body: string;
  status: MessageStatus;
  provider_message_id: string | null;
  error_code: string | null;
  error_message: string | null;
  then_outcome: FollowUpContinuation | null;
  send_after: Date | null;
  created_at: Date;
  updated_at: Date;
  sent_at: Date | null;
  settled_at: Date | null;
}

const COLUMNS = `id, organization_id, campaign_id, target_id, call_log_id, provider_connection_id,
  provider, direction, to_number, from_number, body, status, provider_message_id, error_code,
  error_message, then_outcome, send_after, created_at, updated_at, sent_at, settled_at`;

function messageFromRow(r: MessageRow): Message {
  return {
    id: r.id,
    organizationId: r.organization_id,
    campaignId: r.campaign_id,
    targetId: r.target_id,
    callLogId: r.call_log_id === null ? null : Number(r.call_log_id),
    providerConnectionId: r.provider_connection_id,
    provider: r.provider,
    direction: r.direction,
    to: r.to_number,
    from: r.from_number,
    body: r.body,
    status: r.status,
    providerMessageId: r.provider_message_id,
    errorCode: r.error_code,
    errorMessage: r.error_message,
    continuation: r.then_outcome,
    sendAfter: r.send_after,
    createdAt: r.created_at,
    updatedAt: r.updated_at,
    sentAt: r.sent_at,
    settledAt: r.settled_at,
  };
}

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
      `SELECT ${COLUMNS} FROM messages WHERE organization_id = $1 AND target_id = $2
        ORDER BY created_at, id`,
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
    await sqlExecutor(this.dataSource, tx).query(
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
