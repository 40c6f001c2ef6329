import { ApiKeyRecord, Organization } from '../../domain/api-key.js';

export abstract class OrganizationRepository {
  abstract createOrganization(name: string): Promise<Organization>;
  abstract findOrganizationById(id: string): Promise<Organization | null>;
  abstract findOrganizationByName(name: string): Promise<Organization | null>;
  abstract listOrganizations(): Promise<Organization[]>;
  /** Inserts the key unless one with the same hash exists; returns the stored record either way. */
  abstract saveApiKey(key: {
    organizationId: string;
    name: string;
    keyPrefix: string;
    keyHash: string;
  }): Promise<ApiKeyRecord>;
  abstract findActiveApiKeyByHash(keyHash: string): Promise<ApiKeyRecord | null>;
  abstract listApiKeys(organizationId: string): Promise<ApiKeyRecord[]>;
  /** Sets `last_used_at` to now unless it was set within the last minute (by any process). */
  abstract touchApiKey(id: string): Promise<void>;
  /** Returns false when no active key has that id (of that organization, when one is given). */
  abstract revokeApiKey(id: string, organizationId?: string): Promise<boolean>;
}
