import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { DataSource, Repository } from 'typeorm';
import { Campaign } from '../domain/campaign';
import {
  CampaignChanges,
  CampaignRepository,
  CampaignUpdateResult,
  NewCampaign,
} from '../application/ports/campaign.repository';
import { sqlExecutor } from '../../../database/typeorm-unit-of-work';
import { CampaignOrmEntity } from './campaign.orm-entity';

const toCampaign = (e: CampaignOrmEntity): Campaign => ({ ...e });

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
};

@Injectable()
export class TypeOrmCampaignRepository extends CampaignRepository {
  constructor(
    @InjectRepository(CampaignOrmEntity) private readonly campaigns: Repository<CampaignOrmEntity>,
    private readonly dataSource: DataSource,
  ) {
    super();
  }

  async create(campaign: NewCampaign): Promise<Campaign> {
    return toCampaign(await this.campaigns.save(this.campaigns.create(campaign)));
  }

  async findById(id: string): Promise<Campaign | null> {
    const e = await this.campaigns.findOneBy({ id });
    return e ? toCampaign(e) : null;
  }

  async list(organizationId: string, offset: number, limit: number) {
    const [rows, total] = await this.campaigns.findAndCount({
      where: { organizationId },
      order: { createdAt: 'ASC', id: 'ASC' },
      skip: offset,
      take: limit,
    });
    return { items: rows.map(toCampaign), total };
  }

  async update(
    organizationId: string,
    id: string,
    changes: CampaignChanges,
  ): Promise<CampaignUpdateResult> {
    const params: unknown[] = [id, organizationId];
    const value = (v: unknown, cast: string) => `$${params.push(v)}::${cast}`;
    const sets = ['updated_at = now()'];
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
    const { rowCount } = await sqlExecutor(this.dataSource, null).query(
      `UPDATE campaigns c SET ${sets.join(', ')}
        WHERE c.id = $1 AND c.organization_id = $2 AND ${conditions.join(' AND ')}`,
      params,
    );
    const current = await this.campaigns.findOneBy({ id, organizationId });
    if (!current) return { kind: 'not_found' };
    if (rowCount > 0) return { kind: 'updated', campaign: toCampaign(current) };
    const newSteps = changes.steps ?? current.steps;
    const newEntry = changes.entryStep !== undefined ? changes.entryStep : current.entryStep;
    return newEntry !== null && !newSteps.some((st) => st.friendly_id === newEntry)
      ? { kind: 'entry_step_not_in_steps' }
      : { kind: 'waiting_step_removed' };
  }

  async setWebhookSecret(
    organizationId: string,
    id: string,
    secret: string,
  ): Promise<Campaign | null> {
    await this.campaigns.update({ id, organizationId }, { webhookSecret: secret });
    const e = await this.campaigns.findOneBy({ id, organizationId });
    return e ? toCampaign(e) : null;
  }
}
