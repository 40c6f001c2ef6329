import { randomUUID } from 'crypto';
import { OrganizationRepository } from '../modules/organization/application/ports/organization.repository.js';
import {
  ApiKeyGrant,
  ApiKeyRecord,
  lastUseIsStale,
  Organization,
} from '../modules/organization/domain/api-key.js';

/** Same rules as the database: unique organization names, unique key hashes. */
export class InMemoryOrganizationRepository extends OrganizationRepository {
  readonly organizations = new Map<string, Organization>();
  readonly apiKeys = new Map<string, ApiKeyRecord & { keyHash: string }>();

  async createOrganization(name: string, now: Date): Promise<Organization> {
    if ([...this.organizations.values()].some((o) => o.name === name)) {
      throw new Error(`duplicate organization name ${name}`);
    }
    const organization = { id: randomUUID(), name, createdAt: now };
    this.organizations.set(organization.id, organization);
    return { ...organization };
  }

  async findOrganizationById(id: string) {
    const o = this.organizations.get(id);
    return o ? { ...o } : null;
  }

  async findOrganizationByName(name: string) {
    const o = [...this.organizations.values()].find((x) => x.name === name);
    return o ? { ...o } : null;
  }

  async listOrganizations() {
    return [...this.organizations.values()].map((o) => ({ ...o }));
  }

  async saveApiKey(
    key: { organizationId: string; keyPrefix: string; keyHash: string } & ApiKeyGrant,
    now: Date,
  ) {
    const existing = [...this.apiKeys.values()].find((k) => k.keyHash === key.keyHash);
    if (existing) return strip(existing);
    const record = {
      ...key,
      campaignIds: key.campaignIds ? [...key.campaignIds] : null,
      id: randomUUID(),
      createdAt: now,
      lastUsedAt: null,
      revokedAt: null,
    };
    this.apiKeys.set(record.id, record);
    return strip(record);
  }

  async findActiveApiKeyByHash(keyHash: string) {
    const k = [...this.apiKeys.values()].find((x) => x.keyHash === keyHash && !x.revokedAt);
    return k ? strip(k) : null;
  }

  async listApiKeys(organizationId: string) {
    return [...this.apiKeys.values()].filter((k) => k.organizationId === organizationId).map(strip);
  }

  async touchApiKey(id: string, now: Date) {
    const k = this.apiKeys.get(id);
    if (k && lastUseIsStale(k, now)) k.lastUsedAt = now;
  }

  async revokeApiKey(id: string, now: Date, organizationId?: string) {
    const k = this.apiKeys.get(id);
    if (!k || k.revokedAt || (organizationId && k.organizationId !== organizationId)) return false;
    k.revokedAt = now;
    return true;
  }
}

function strip({ keyHash: _hash, ...record }: ApiKeyRecord & { keyHash: string }): ApiKeyRecord {
  return { ...record, campaignIds: record.campaignIds ? [...record.campaignIds] : null };
}
