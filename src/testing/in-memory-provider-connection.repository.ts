import { randomBytes } from 'crypto';
import { ConflictError } from '../common/errors/domain-errors.js';
import { ProviderConnectionService } from '../modules/provider-connection/application/provider-connection.service.js';
import { AesGcmSecretBox } from '../common/secrets/aes-gcm-secret-box.js';
import { ResolvingProviderDestinations } from '../modules/provider-connection/infrastructure/resolving-provider-destinations.js';
import {
  ConnectionChanges,
  NewConnection,
  ProviderConnectionRepository,
  StoredConnection,
} from '../modules/provider-connection/application/ports/provider-connection.repository.js';
import { definedOnly } from '../common/objects/defined-only.js';
import { pageOf } from './in-memory-rows.js';

/** The SQL adapter's rules in memory: names unique per organization, one default per organization. */
export class InMemoryProviderConnectionRepository extends ProviderConnectionRepository {
  private readonly rows = new Map<string, StoredConnection>();

  async create(c: NewConnection, now: Date): Promise<StoredConnection> {
    this.assertNameFree(c.organizationId, c.name, c.id);
    if (c.isDefault) this.unsetDefault(c.organizationId, c.id, now);
    const row: StoredConnection = { ...c, createdAt: now, updatedAt: now };
    this.rows.set(c.id, row);
    return copy(row);
  }

  async findById(id: string): Promise<StoredConnection | null> {
    const row = this.rows.get(id);
    return row ? copy(row) : null;
  }

  async findDefault(organizationId: string): Promise<StoredConnection | null> {
    const row = [...this.rows.values()].find(
      (r) => r.organizationId === organizationId && r.isDefault,
    );
    return row ? copy(row) : null;
  }

  async list(organizationId: string, offset: number, limit: number) {
    const all = [...this.rows.values()].filter((r) => r.organizationId === organizationId);
    // Map order is insertion order: creation order, as the adapter's (created_at, id).
    return pageOf(all, offset, limit, copy);
  }

  async update(
    organizationId: string,
    id: string,
    changes: ConnectionChanges,
    now: Date,
  ): Promise<StoredConnection | null> {
    const row = this.rows.get(id);
    if (!row || row.organizationId !== organizationId) return null;
    if (changes.name !== undefined) this.assertNameFree(organizationId, changes.name, id);
    if (changes.isDefault) this.unsetDefault(organizationId, id, now);
    const updated: StoredConnection = { ...row, ...definedOnly(changes), updatedAt: now };
    this.rows.set(id, updated);
    return copy(updated);
  }

  async delete(organizationId: string, id: string): Promise<boolean> {
    const row = this.rows.get(id);
    if (!row || row.organizationId !== organizationId) return false;
    return this.rows.delete(id);
  }

  private assertNameFree(organizationId: string, name: string, id: string) {
    for (const r of this.rows.values()) {
      if (r.organizationId === organizationId && r.name === name && r.id !== id) {
        throw new ConflictError('A provider connection with this name already exists');
      }
    }
  }

  private unsetDefault(organizationId: string, exceptId: string, now: Date) {
    for (const r of this.rows.values()) {
      if (r.organizationId === organizationId && r.isDefault && r.id !== exceptId) {
        this.rows.set(r.id, { ...r, isDefault: false, updatedAt: now });
      }
    }
  }
}

/** Callers never share state with the store (JSON values copied, dates kept as dates). */
function copy(row: StoredConnection): StoredConnection {
  return {
    ...row,
    sealedCredentials: row.sealedCredentials ? { ...row.sealedCredentials } : null,
    maskedCredentials: { ...row.maskedCredentials },
    settings: JSON.parse(JSON.stringify(row.settings)) as StoredConnection['settings'],
  };
}

/**
 * Connections kept in memory, sealed with a throwaway key, any `api_base_url` allowed (no DNS): for
 * services that only look them up.
 */
export function inMemoryProviderConnections(): {
  repository: InMemoryProviderConnectionRepository;
  service: ProviderConnectionService;
} {
  const repository = new InMemoryProviderConnectionRepository();
  const box = new AesGcmSecretBox({ kind: 'configured', key: randomBytes(32) });
  const destinations = new ResolvingProviderDestinations({
    allowPrivate: true,
    setting: 'PROVIDER_ALLOW_PRIVATE',
  });
  return { repository, service: new ProviderConnectionService(repository, box, destinations) };
}
