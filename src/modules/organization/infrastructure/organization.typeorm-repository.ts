import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { IsNull, Repository } from 'typeorm';
import { ApiKeyRecord, Organization } from '../domain/api-key';
import { OrganizationRepository } from '../application/ports/organization.repository';
import { ApiKeyOrmEntity, OrganizationOrmEntity } from './organization.orm-entity';

const toOrganization = (e: OrganizationOrmEntity): Organization => ({
  id: e.id,
  name: e.name,
  createdAt: e.createdAt,
});
const toApiKey = (e: ApiKeyOrmEntity): ApiKeyRecord => ({
  id: e.id,
  organizationId: e.organizationId,
  name: e.name,
  keyPrefix: e.keyPrefix,
  createdAt: e.createdAt,
  revokedAt: e.revokedAt,
});

@Injectable()
export class TypeOrmOrganizationRepository extends OrganizationRepository {
  constructor(
    @InjectRepository(OrganizationOrmEntity)
    private readonly organizations: Repository<OrganizationOrmEntity>,
    @InjectRepository(ApiKeyOrmEntity) private readonly apiKeys: Repository<ApiKeyOrmEntity>,
  ) {
    super();
  }

  async createOrganization(name: string): Promise<Organization> {
    return toOrganization(await this.organizations.save(this.organizations.create({ name })));
  }

  async findOrganizationById(id: string): Promise<Organization | null> {
    const e = await this.organizations.findOneBy({ id });
    return e ? toOrganization(e) : null;
  }

  async findOrganizationByName(name: string): Promise<Organization | null> {
    const e = await this.organizations.findOneBy({ name });
    return e ? toOrganization(e) : null;
  }

  async listOrganizations(): Promise<Organization[]> {
    return (await this.organizations.find({ order: { createdAt: 'ASC', id: 'ASC' } })).map(
      toOrganization,
    );
  }

  async saveApiKey(key: {
    organizationId: string;
    name: string;
    keyPrefix: string;
    keyHash: string;
  }) {
    await this.apiKeys.createQueryBuilder().insert().values(key).orIgnore().execute();
    return toApiKey(await this.apiKeys.findOneByOrFail({ keyHash: key.keyHash }));
  }

  async findActiveApiKeyByHash(keyHash: string): Promise<ApiKeyRecord | null> {
    const e = await this.apiKeys.findOneBy({ keyHash, revokedAt: IsNull() });
    return e ? toApiKey(e) : null;
  }

  async listApiKeys(organizationId: string): Promise<ApiKeyRecord[]> {
    return (
      await this.apiKeys.find({ where: { organizationId }, order: { createdAt: 'ASC' } })
    ).map(toApiKey);
  }

  async revokeApiKey(id: string, organizationId?: string): Promise<boolean> {
    const result = await this.apiKeys.update(
      { id, revokedAt: IsNull(), ...(organizationId && { organizationId }) },
      { revokedAt: () => 'now()' },
    );
    return (result.affected ?? 0) > 0;
  }
}
