import { ApiKeyGrant, ApiKeyRecord, Organization } from '../../domain/api-key.js';

/** `now` arguments are the times recorded (the service's clock, so that a test's clock moves them). */
export abstract class OrganizationRepository {
  /** `now`: its created_at. */
  abstract createOrganization(name: string, now: Date): Promise<Organization>;
  abstract findOrganizationById(id: string): Promise<Organization | null>;
  abstract findOrganizationByName(name: string): Promise<Organization | null>;
  abstract listOrganizations(): Promise<Organization[]>;
  /**
   * Inserts the key unless one with the same hash exists; returns the stored record either way.
   * `now`: a new key's created_at.
   */
  abstract saveApiKey(
    key: { organizationId: string; keyPrefix: string; keyHash: string } & ApiKeyGrant,
    now: Date,
  ): Promise<ApiKeyRecord>;
  abstract findActiveApiKeyByHash(keyHash: string): Promise<ApiKeyRecord | null>;
  abstract listApiKeys(organizationId: string): Promise<ApiKeyRecord[]>;
  /** Sets `last_used_at` to `now` unless it was set within the minute before (by any process). */
  abstract touchApiKey(id: string, now: Date): Promise<void>;
  /**
   * Sets `revoked_at` to `now`; returns false when no active key has that id (of that organization,
   * when one is given).
   */
  abstract revokeApiKey(id: string, now: Date, organizationId?: string): Promise<boolean>;
}
