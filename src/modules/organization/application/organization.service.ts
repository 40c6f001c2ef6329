import { Injectable } from '@nestjs/common';
import { Clock, SystemClock } from '../../../common/clock/clock.js';
import { ExpiringCache } from '../../../common/caching/expiring-cache.js';
import {
  ConflictError,
  InvalidInputError,
  NotFoundError,
  UnauthorizedError,
} from '../../../common/errors/domain-errors.js';
import type { AuthContext } from '../../../common/auth/auth-context.js';
import { isUuid } from '../../../common/ids/canonical-uuid.js';
import {
  ApiKeyGrant,
  ApiKeyRecord,
  displayPrefix,
  generateApiKey,
  hashApiKey,
  hasExpired,
  lastUseIsStale,
  Organization,
} from '../domain/api-key.js';
import { ApiKeyRevocations } from './ports/api-key-revocations.js';

/** FastAPI's words for a request without credentials, and which header carries them here. */
export const NOT_AUTHENTICATED =
  'Not authenticated: send your API key in the X-API-Key header (or Authorization: Bearer <key>)';
import { OrganizationRepository } from './ports/organization.repository.js';

export interface IssuedApiKey extends ApiKeyRecord {
  /** The plaintext key: returned once, never stored. */
  key: string;
}

/** Keys held in memory at most; past this the cache starts over (it only saves lookups). */
const MAX_CACHED_KEYS = 10_000;

@Injectable()
export class OrganizationService {
  /** Active keys by hash. Unknown and revoked keys are not kept; a lookup that raced a revoke is not. */
  private readonly activeKeys = new ExpiringCache<string, ApiKeyRecord>(MAX_CACHED_KEYS);

  constructor(
    private readonly repository: OrganizationRepository,
    private readonly revocations: ApiKeyRevocations,
    private readonly clock: Clock = new SystemClock(),
  ) {
    // Which key was revoked is not said, and revokes are rare: forget them all.
    revocations.subscribe(() => this.forgetKeys());
  }

  async createOrganization(name: string): Promise<Organization> {
    const trimmed = name.trim();
    if (!trimmed)
      throw new InvalidInputError('Organization name must not be empty', ['name'], name);
    if (await this.repository.findOrganizationByName(trimmed)) {
      throw new ConflictError(`Organization "${trimmed}" already exists`);
    }
    return this.repository.createOrganization(trimmed, this.clock.now());
  }

  listOrganizations(): Promise<Organization[]> {
    return this.repository.listOrganizations();
  }

  /**
   * A new key: admin of the whole organization, never expiring, unless `grant` says otherwise (a
   * string is its name alone).
   */
  async createApiKey(
    organizationId: string,
    grantOrName: Partial<ApiKeyGrant> | string = {},
  ): Promise<IssuedApiKey> {
    const grant = typeof grantOrName === 'string' ? { name: grantOrName } : grantOrName;
    await this.requireOrganization(organizationId);
    const now = this.clock.now();
    const name = (grant.name ?? 'default').trim();
    if (!name) throw new InvalidInputError('name must not be empty', ['name'], grant.name);
    if (grant.campaignIds && grant.campaignIds.length === 0) {
      throw new InvalidInputError(
        'campaign_ids must name at least one campaign (leave it out for every campaign)',
        ['campaign_ids'],
        grant.campaignIds,
      );
    }
    if (grant.expiresAt && grant.expiresAt.getTime() <= now.getTime()) {
      throw new InvalidInputError(
        'expires_at must be in the future',
        ['expires_at'],
        grant.expiresAt.toISOString(),
      );
    }
    const key = generateApiKey();
    const record = await this.saveKey(
      organizationId,
      key,
      {
        name,
        role: grant.role ?? 'admin',
        campaignIds: grant.campaignIds ? [...new Set(grant.campaignIds)] : null,
        expiresAt: grant.expiresAt ?? null,
        createdBy: grant.createdBy ?? null,
      },
      now,
    );
    return { ...record, key };
  }

  async listApiKeys(organizationId: string): Promise<ApiKeyRecord[]> {
    await this.requireOrganization(organizationId);
    return this.repository.listApiKeys(organizationId);
  }

  /** With `organizationId`, only that organization's key (another's is NotFound, as for any resource). */
  async revokeApiKey(id: string, organizationId?: string): Promise<void> {
    if (
      !isUuid(id) ||
      !(await this.repository.revokeApiKey(id, this.clock.now(), organizationId))
    ) {
      throw new NotFoundError(`API key ${id} not found`);
    }
    // Here at once; other processes when the revocation reaches them.
    this.forgetKeys();
  }

  async authenticate(key: string | undefined): Promise<AuthContext> {
    if (!key) throw new UnauthorizedError(NOT_AUTHENTICATED);
    const hash = hashApiKey(key);
    const record = await this.activeKey(hash);
    if (!record) throw new UnauthorizedError('Invalid API key');
    const now = this.clock.now();
    if (hasExpired(record, now)) throw new UnauthorizedError('API key expired');
    if (lastUseIsStale(record, now)) {
      // Bookkeeping: a failed write must not refuse a valid key. The cached copy is stamped too, so
      // the next requests do not write again.
      record.lastUsedAt = now;
      await this.repository.touchApiKey(record.id, now).catch(() => undefined);
    }
    return {
      organizationId: record.organizationId,
      apiKeyId: record.id,
      principal: { kind: 'api_key', id: record.id, name: record.name },
      role: record.role,
      campaignIds: record.campaignIds,
    };
  }

  // Real time, not the clock: how long a cached key is honoured is bounded by how fast revocations
  // reach this process over the network (see ApiKeyRevocations.cacheTtlMs).
  private activeKey(hash: string): Promise<ApiKeyRecord | null> {
    return this.activeKeys.get(hash, Date.now(), this.revocations.cacheTtlMs(), () =>
      this.repository.findActiveApiKeyByHash(hash),
    );
  }

  private forgetKeys(): void {
    this.activeKeys.forgetAll();
  }

  /**
   * Makes sure the organization exists and that `key` authenticates for it, unless someone revoked
   * that key (a revoked key stays revoked: `revokedKey` says so, for a warning). Safe to call at every
   * start and from several processes at once.
   */
  async ensureOrganizationWithKey(
    organizationName: string,
    key: string,
  ): Promise<{ organization: Organization; revokedKey: ApiKeyRecord | null }> {
    const organization = await this.ensureOrganization(organizationName);
    const stored = await this.saveKey(
      organization.id,
      key,
      { name: 'bootstrap', role: 'admin', campaignIds: null, expiresAt: null, createdBy: null },
      this.clock.now(),
    );
    if (stored.organizationId !== organization.id) {
      throw new ConflictError(`That API key already belongs to another organization`);
    }
    return { organization, revokedKey: stored.revokedAt ? stored : null };
  }

  /** Stores `key` (its hash and display prefix, never the key) unless its hash is stored already. */
  private saveKey(organizationId: string, key: string, grant: ApiKeyGrant, now: Date) {
    const keyFields = { keyPrefix: displayPrefix(key), keyHash: hashApiKey(key) };
    return this.repository.saveApiKey({ organizationId, ...grant, ...keyFields }, now);
  }

  async ensureOrganization(name: string): Promise<Organization> {
    const existing = await this.repository.findOrganizationByName(name);
    if (existing) return existing;
    try {
      return await this.repository.createOrganization(name, this.clock.now());
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
