import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { Tx } from '../../../common/persistence/unit-of-work.js';
import { Campaign, CampaignState } from '../domain/campaign.js';
import {
  CampaignChanges,
  CampaignRepository,
  CampaignUpdateResult,
  NewCampaign,
} from '../application/ports/campaign.repository.js';
import {
  onUniqueViolation,
  pageWithTotal,
  preparedSql,
  sqlExecutor,
} from '../../../database/sql.js';
import { CAMPAIGN_COLUMNS, campaignFromRow, CampaignRow } from './campaign.row.js';

const COLUMN_LIST = CAMPAIGN_COLUMNS.join(', ');

/** The campaign read of every call placed and every state decision: prepared per connection. */
const CAMPAIGN_BY_ID = preparedSql(
  'campaign_by_id',
  `SELECT ${COLUMN_LIST} FROM campaigns WHERE id = $1`,
);

/** Updatable fields: column and SQL type. */
const COLUMNS: Record<keyof CampaignChanges, [string, string]> = {
  name: ['name', 'text'],
  type: ['type', 'text'],
  callerId: ['caller_id', 'text'],
  maxAttempts: ['max_attempts', 'int'],
  retryDelayMinutes: ['retry_delay_minutes', 'int'],
  maxConcurrentCalls: ['max_concurrent_calls', 'int'],
  callingWindow: ['calling_window', 'jsonb'],
  steps: ['steps', 'jsonb'],
  entryStep: ['entry_step', 'text'],
  blacklistIds: ['blacklist_ids', 'uuid[]'],
  webhookUrl: ['webhook_url', 'text'],
  providerConnectionId: ['provider_connection_id', 'uuid'],
  autoPause: ['auto_pause', 'jsonb'],
  smsFollowUp: ['sms_follow_up', 'jsonb'],
  defaultCountry: ['default_country', 'text'],
  voicemailMessage: ['voicemail_message', 'text'],
};

@Injectable()
export class SqlCampaignRepository extends CampaignRepository {
  constructor(private readonly dataSource: DataSource) {
    super();
  }

  private get sql() {
    return sqlExecutor(this.dataSource, null);
  }

  async create(campaign: NewCampaign, now: Date): Promise<Campaign> {
    const { rows } = await onUniqueViolation(
      () =>
        this.sql.query<CampaignRow>(
          `INSERT INTO campaigns (organization_id, name, type, caller_id, max_attempts,
             retry_delay_minutes, max_concurrent_calls, calling_window, steps, entry_step,
             blacklist_ids, webhook_url, webhook_secret, provider_connection_id, auto_pause,
             sms_follow_up, default_country, voicemail_message, created_at, updated_at)
           VALUES ($1, $2, $3, $4, $5, $6, $7, $8::jsonb, $9::jsonb, $10, $11::uuid[], $12, $13, $14,
             $15::jsonb, $16::jsonb, $18, $19, $17, $17)
           RETURNING ${COLUMN_LIST}`,
          [
            campaign.organizationId,
            campaign.name,
            campaign.type,
            campaign.callerId,
            campaign.maxAttempts,
            campaign.retryDelayMinutes,
            campaign.maxConcurrentCalls,
            jsonOrNull(campaign.callingWindow),
            JSON.stringify(campaign.steps),
            campaign.entryStep,
            campaign.blacklistIds,
            campaign.webhookUrl,
            campaign.webhookSecret,
            campaign.providerConnectionId,
            jsonOrNull(campaign.autoPause),
            jsonOrNull(campaign.smsFollowUp),
            now,
            campaign.defaultCountry,
            campaign.voicemailMessage,
          ],
        ),
      {},
      'Campaign already exists',
    );
    return campaignFromRow(rows[0]);
  }

  async findById(id: string, tx: Tx | null = null): Promise<Campaign | null> {
    const { rows } = await sqlExecutor(this.dataSource, tx).query<CampaignRow>(CAMPAIGN_BY_ID, [
      id,
    ]);
    return rows.length > 0 ? campaignFromRow(rows[0]) : null;
  }

  async list(
    organizationId: string,
    offset: number,
    limit: number,
    campaignIds: string[] | null = null,
  ) {
    const { rows, total } = await pageWithTotal<CampaignRow>(this.sql, {
      columns: CAMPAIGN_COLUMNS,
      from: 'campaigns',
      where: 'organization_id = $1 AND ($2::uuid[] IS NULL OR id = ANY($2::uuid[]))',
      orderBy: 'created_at, id',
      params: [organizationId, campaignIds],
      offset,
      limit,
    });
    return { items: rows.map(campaignFromRow), total };
  }

  async update(
    organizationId: string,
    id: string,
    changes: CampaignChanges,
    now: Date,
  ): Promise<CampaignUpdateResult> {
    const params: unknown[] = [id, organizationId];
    const value = (v: unknown, cast: string) => `$${params.push(v)}::${cast}`;
    const sets = [`updated_at = ${value(now, 'timestamptz')}`];
    for (const [key, [column, cast]] of Object.entries(COLUMNS)) {
      const v = changes[key as keyof CampaignChanges];
      if (v === undefined) continue;
      sets.push(
        `${column} = ${value(cast === 'jsonb' && v !== null ? JSON.stringify(v) : v, cast)}`,
      );
    }
    // The WHERE clause sees the row as it is; these are its values after this change.
    const steps =
      changes.steps !== undefined ? value(JSON.stringify(changes.steps), 'jsonb') : 'c.steps';
    const entry =
      changes.entryStep !== undefined ? value(changes.entryStep, 'text') : 'c.entry_step';
    const hasStep = (name: string) =>
      `EXISTS (SELECT 1 FROM jsonb_array_elements(${steps}) s WHERE s->>'friendly_id' = ${name})`;
    const conditions = [`(${entry} IS NULL OR ${hasStep(entry)})`];
    if (changes.steps !== undefined) {
      conditions.push(
        `NOT EXISTS (SELECT 1 FROM targets t WHERE t.campaign_id = c.id AND t.status = 'Waiting' AND NOT ${hasStep('t.current_step')})`,
      );
    }
    const { rows: updated } = await this.sql.query<CampaignRow>(
      `UPDATE campaigns c SET ${sets.join(', ')}
        WHERE c.id = $1 AND c.organization_id = $2 AND ${conditions.join(' AND ')}
        RETURNING ${CAMPAIGN_COLUMNS.map((column) => `c.${column}`).join(', ')}`,
      params,
    );
    if (updated.length > 0) return { kind: 'updated', campaign: campaignFromRow(updated[0]) };
    const current = await this.findOwn(organizationId, id);
    if (!current) return { kind: 'not_found' };
    const newSteps = changes.steps ?? current.steps;
    const newEntry = changes.entryStep !== undefined ? changes.entryStep : current.entryStep;
    return newEntry !== null && !newSteps.some((st) => st.friendly_id === newEntry)
      ? { kind: 'entry_step_not_in_steps' }
      : { kind: 'waiting_step_removed' };
  }

  async changeState(
    tx: Tx,
    organizationId: string,
    id: string,
    from: CampaignState[],
    to: CampaignState,
    now: Date,
    pausedReason: string | null = null,
  ): Promise<Campaign | null> {
    const { rows } = await sqlExecutor(this.dataSource, tx).query<CampaignRow>(
      `UPDATE campaigns SET state = $3, state_changed_at = $5, updated_at = $5,
              paused_reason = CASE WHEN $3 = 'paused' THEN $6::text END
        WHERE id = $1 AND organization_id = $2 AND state = ANY($4::text[])
        RETURNING ${COLUMN_LIST}`,
      [id, organizationId, to, from, now, pausedReason],
    );
    return rows.length > 0 ? campaignFromRow(rows[0]) : null;
  }

  async lockedState(tx: Tx, id: string): Promise<CampaignState | null> {
    const { rows } = await sqlExecutor(this.dataSource, tx).query<{ state: CampaignState }>(
      `SELECT state FROM campaigns WHERE id = $1 FOR SHARE`,
      [id],
    );
    return rows[0]?.state ?? null;
  }

  async lockedStates(tx: Tx, ids: string[]): Promise<Map<string, CampaignState>> {
    if (ids.length === 0) return new Map();
    // In id order: two transactions share-locking overlapping campaigns never wait on each other in
    // a cycle with a state change.
    const { rows } = await sqlExecutor(this.dataSource, tx).query<{
      id: string;
      state: CampaignState;
    }>(`SELECT id, state FROM campaigns WHERE id = ANY($1::uuid[]) ORDER BY id FOR SHARE`, [
      [...new Set(ids)],
    ]);
    return new Map(rows.map((r) => [r.id, r.state]));
  }

  async pausedIds(): Promise<string[]> {
    // The partial index campaigns_paused_idx holds exactly these.
    const { rows } = await sqlExecutor(this.dataSource, null).query<{ id: string }>(
      `SELECT id FROM campaigns WHERE state = 'paused'`,
    );
    return rows.map((r) => r.id);
  }

  async setWebhookSecret(
    organizationId: string,
    id: string,
    secret: string,
    now: Date,
  ): Promise<Campaign | null> {
    const { rows } = await this.sql.query<CampaignRow>(
      `UPDATE campaigns SET webhook_secret = $3, updated_at = $4
        WHERE id = $1 AND organization_id = $2
        RETURNING ${COLUMN_LIST}`,
      [id, organizationId, secret, now],
    );
    return rows.length > 0 ? campaignFromRow(rows[0]) : null;
  }

  private async findOwn(organizationId: string, id: string): Promise<Campaign | null> {
    const { rows } = await this.sql.query<CampaignRow>(
      `SELECT ${COLUMN_LIST} FROM campaigns WHERE id = $1 AND organization_id = $2`,
      [id, organizationId],
    );
    return rows.length > 0 ? campaignFromRow(rows[0]) : null;
  }
}

function jsonOrNull(value: unknown): string | null {
  return value === null || value === undefined ? null : JSON.stringify(value);
}
