import { Injectable } from '@nestjs/common';
import {
  ConflictError,
  NotFoundError,
  UnauthorizedError,
} from '../../../common/errors/domain-errors';
import type { AuthContext } from '../../../common/http/auth.decorators';
import { isUuid } from '../../../common/validation/py-validators';
import {
  ApiKeyRecord,
  displayPrefix,
  generateApiKey,
  hashApiKey,
  Organization,
} from '../domain/api-key';
import { OrganizationRepository } from './ports/organization.repository';

export interface IssuedApiKey extends ApiKeyRecord {
  /** The plaintext key: returned once, never stored. */
  key: string;
}

@Injectable()
export class OrganizationService {
  constructor(private readonly repository: OrganizationRepository) {}

  async createOrganization(name: string): Promise<Organization> {
    const trimmed = name.trim();
    if (!trimmed) throw new ConflictError('Organization name must not be empty');
    if (await this.repository.findOrganizationByName(trimmed)) {
      throw new ConflictError(`Organization "${trimmed}" already exists`);
    }
    return this.repository.createOrganization(trimmed);
  }

  listOrganizations(): Promise<Organization[]> {
    return this.repository.listOrganizations();
  }

  async createApiKey(organizationId: string, name = 'default'): Promise<IssuedApiKey> {
    await this.requireOrganization(organizationId);
    const key = generateApiKey();
    const record = await this.repository.saveApiKey({
      organizationId,
      name,
      keyPrefix: displayPrefix(key),
      keyHash: hashApiKey(key),
    });
    return { ...record, key };
  }

  async listApiKeys(organizationId: string): Promise<ApiKeyRecord[]> {
    await this.requireOrganization(organizationId);
    return this.repository.listApiKeys(organizationId);
  }

  /** With `organizationId`, only that organization's key (another's is NotFound, as for any resource). */
  async revokeApiKey(id: string, organizationId?: string): Promise<void> {
    if (!isUuid(id) || !(await this.repository.revokeApiKey(id, organizationId))) {
      throw new NotFoundError(`API key ${id} not found`);
    }
  }

  async authenticate(key: string | undefined): Promise<AuthContext> {
    if (!key) throw new UnauthorizedError('Not authenticated');
    const record = await this.repository.findActiveApiKeyByHash(hashApiKey(key));
    if (!record) throw new UnauthorizedError('Invalid API key');
    return { organizationId: record.organizationId, apiKeyId: record.id };
  }

  /**
   * Makes sure the organization exists and that `key` authenticates for it. Safe to call at every
   * start and from several processes at once.
   */
  async ensureOrganizationWithKey(organizationName: string, key: string): Promise<Organization> {
    const organization = await this.ensureOrganization(organizationName);
    const existing = await this.repository.findActiveApiKeyByHash(hashApiKey(key));
    if (existing && existing.organizationId !== organization.id) {
      throw new ConflictError(`That API key already belongs to another organization`);
    }
    if (!existing) {
      await this.repository.saveApiKey({
        organizationId: organization.id,
        name: 'bootstrap',
        keyPrefix: displayPrefix(key),
        keyHash: hashApiKey(key),
      });
    }
    return organization;
  }

  async ensureOrganization(name: string): Promise<Organization> {
    const existing = await this.repository.findOrganizationByName(name);
    if (existing) return existing;
    try {
      return await this.repository.createOrganization(name);
    } catch (err) {
      // Another process created it first.
      const raced = await this.repository.findOrganizationByName(name);
      if (raced) return raced;
      throw err;
    }
  }

  private async requireOrganization(id: string): Promise<Organization> {
    const organization = isUuid(id) ? await this.repository.findOrganizationById(id) : null;
    if (!organization) throw new NotFoundError(`Organization ${id} not found`);
    return organization;
  }
}

/** `acme=key1,globex=key2` → [['acme', 'key1'], ['globex', 'key2']] */
export function parseBootstrapKeys(spec: string | undefined): [string, string][] {
  if (!spec?.trim()) return [];
  return spec.split(',').map((pair) => {
    const at = pair.indexOf('=');
    const [name, key] = [pair.slice(0, at).trim(), pair.slice(at + 1).trim()];
    if (at < 1 || !name || !key) {
      throw new Error(
        `BOOTSTRAP_API_KEYS: expected name=key pairs separated by commas, got "${pair}"`,
      );
    }
    return [name, key];
  });
}
