import { Blacklist, BlacklistEntry } from '../../domain/blacklist.js';

export abstract class BlacklistRepository {
  /** `now`: its created_at and updated_at (the service's clock, so that a test's clock moves them). */
  abstract create(
    organizationId: string,
    name: string,
    description: string | null,
    now: Date,
  ): Promise<Blacklist>;
  abstract findById(id: string): Promise<Blacklist | null>;
  abstract list(
    organizationId: string,
    offset: number,
    limit: number,
  ): Promise<{ items: Blacklist[]; total: number }>;
  /** Of these ids, those that are blacklists of the organization. */
  abstract existingIds(organizationId: string, ids: string[]): Promise<Set<string>>;
  /**
   * Inserts or updates the entries in one statement; returns how many were new. `now`: the new
   * entries' created_at and the blacklist's updated_at.
   */
  abstract upsertEntries(
    blacklistId: string,
    entries: BlacklistEntry[],
    now: Date,
  ): Promise<{ added: number; updated: number }>;
  abstract removeEntries(blacklistId: string, phoneNumbers: string[]): Promise<number>;
  abstract listEntries(
    blacklistId: string,
    skip: number,
    limit: number,
  ): Promise<{ items: BlacklistEntry[]; total: number }>;
  /**
   * Of these numbers, those on any of these blacklists, or in an entry of level `organization` of any
   * blacklist of the organization.
   */
  abstract findBlacklisted(
    organizationId: string,
    blacklistIds: string[],
    phoneNumbers: string[],
  ): Promise<Set<string>>;
}
