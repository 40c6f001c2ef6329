import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { Repository } from 'typeorm';
import { Campaign } from '../domain/campaign';
import {
  CampaignChanges,
  CampaignRepository,
  NewCampaign,
} from '../application/ports/campaign.repository';
import { CampaignOrmEntity } from './campaign.orm-entity';

const toCampaign = (e: CampaignOrmEntity): Campaign => ({ ...e });

@Injectable()
export class TypeOrmCampaignRepository extends CampaignRepository {
  constructor(
    @InjectRepository(CampaignOrmEntity) private readonly campaigns: Repository<CampaignOrmEntity>,
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
  ): Promise<Campaign | null> {
    const defined = Object.fromEntries(Object.entries(changes).filter(([, v]) => v !== undefined));
    if (Object.keys(defined).length > 0) {
      await this.campaigns.update({ id, organizationId }, defined as Partial<CampaignOrmEntity>);
    }
    const e = await this.campaigns.findOneBy({ id, organizationId });
    return e ? toCampaign(e) : null;
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
