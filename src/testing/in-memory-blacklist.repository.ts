import { randomUUID } from 'crypto';
import { BlacklistRepository } from '../modules/blacklist/application/ports/blacklist.repository.js';
import {
  Blacklist,
  BlacklistEntry,
  holdsForOrganization,
} from '../modules/blacklist/domain/blacklist.js';
import { pageOf } from './in-memory-rows.js';

export class InMemoryBlacklistRepository extends BlacklistRepository {
  readonly blacklists = new Map<string, Blacklist>();
  /** blacklist id → phone number → entry, in insertion order (the adapter orders by created_at). */
  readonly entries = new Map<string, Map<string, BlacklistEntry>>();

  async create(organizationId: string, name: string, description: string | null, now: Date) {
    const b = {
      id: randomUUID(),
      organizationId,
      name,
      description,
      createdAt: now,
      updatedAt: now,
    };
    this.blacklists.set(b.id, b);
    this.entries.set(b.id, new Map());
    return { ...b };
  }

  async findById(id: string) {
    const b = this.blacklists.get(id);
    return b ? { ...b } : null;
  }

  async list(organizationId: string, offset: number, limit: number) {
    const all = [...this.blacklists.values()].filter((b) => b.organizationId === organizationId);
    return pageOf(all, offset, limit, (b) => ({ ...b }));
  }

  async existingIds(organizationId: string, ids: string[]) {
    return new Set(ids.filter((id) => this.blacklists.get(id)?.organizationId === organizationId));
  }

  async upsertEntries(blacklistId: string, entries: BlacklistEntry[], now: Date) {
    const list = this.entries.get(blacklistId)!;
    const blacklist = this.blacklists.get(blacklistId);
    if (blacklist) blacklist.updatedAt = now;
    let added = 0;
    for (const e of entries) {
      if (!list.has(e.phone_number)) added++;
      list.set(e.phone_number, { ...e });
    }
    return { added, updated: entries.length - added };
  }

  async removeEntries(blacklistId: string, phoneNumbers: string[]) {
    const list = this.entries.get(blacklistId)!;
    return phoneNumbers.filter((p) => list.delete(p)).length;
  }

  async listEntries(blacklistId: string, skip: number, limit: number) {
    const all = [...(this.entries.get(blacklistId)?.values() ?? [])];
    return pageOf(all, skip, limit, (e) => ({ ...e }));
  }

  async findBlacklisted(organizationId: string, blacklistIds: string[], phoneNumbers: string[]) {
    const found = new Set<string>();
    for (const [id, entries] of this.entries) {
      if (this.blacklists.get(id)?.organizationId !== organizationId) continue;
      const named = blacklistIds.includes(id);
      for (const p of phoneNumbers) {
        const entry = entries.get(p);
        if (entry && (named || holdsForOrganization(entry.level))) found.add(p);
      }
    }
    return found;
  }
}
