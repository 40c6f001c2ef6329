import { Injectable } from '@nestjs/common';
import { Clock, SystemClock } from '../../../common/clock/clock.js';
import { NotFoundError } from '../../../common/errors/domain-errors.js';
import { normalizedPhoneNumberAt } from '../../../common/phone/phone-number.js';
import { isUuid } from '../../../common/ids/canonical-uuid.js';
import { Blacklist, BlacklistEntry } from '../domain/blacklist.js';
import { BlacklistRepository } from './ports/blacklist.repository.js';

export type NewBlacklistEntry = { phone_number: string } & Partial<
  Omit<BlacklistEntry, 'phone_number'>
>;

@Injectable()
export class BlacklistService {
  constructor(
    private readonly repository: BlacklistRepository,
    private readonly clock: Clock = new SystemClock(),
  ) {}

  create(
    organizationId: string,
    name: string,
    description: string | null = null,
  ): Promise<Blacklist> {
    return this.repository.create(organizationId, name, description, this.clock.now());
  }

  async get(organizationId: string, blacklistId: string): Promise<Blacklist> {
    const blacklist = isUuid(blacklistId) ? await this.repository.findById(blacklistId) : null;
    if (!blacklist || blacklist.organizationId !== organizationId) {
      throw new NotFoundError(`Blacklist ${blacklistId} not found`);
    }
    return blacklist;
  }

  list(organizationId: string, offset: number, limit: number) {
    return this.repository.list(organizationId, offset, limit);
  }

  async existingIds(organizationId: string, ids: string[]): Promise<Set<string>> {
    const valid = ids.filter(isUuid);
    return valid.length === 0 ? new Set() : this.repository.existingIds(organizationId, valid);
  }

  async addNumbers(organizationId: string, blacklistId: string, entries: NewBlacklistEntry[]) {
    const blacklist = await this.get(organizationId, blacklistId);
    const normalized = entries.map((e, i) => ({
      phone_number: normalizedPhoneNumberAt(e.phone_number, ['phone_numbers', i, 'phone_number']),
      reason: e.reason ?? '',
      level: e.level ?? '',
      name: e.name ?? '',
      comment: e.comment ?? '',
    }));
    // The last entry for a number wins, as if they had been sent one after another.
    const unique = [...new Map(normalized.map((e) => [e.phone_number, e])).values()];
    return this.repository.upsertEntries(blacklist.id, unique, this.clock.now());
  }

  async removeNumbers(organizationId: string, blacklistId: string, phoneNumbers: string[]) {
    const blacklist = await this.get(organizationId, blacklistId);
    const normalized = phoneNumbers.map((p, i) => normalizedPhoneNumberAt(p, ['phone_numbers', i]));
    return { removed: await this.repository.removeEntries(blacklist.id, [...new Set(normalized)]) };
  }

  async listNumbers(
    organizationId: string,
    blacklistId: string,
    page: { skip: number; limit: number },
  ) {
    const blacklist = await this.get(organizationId, blacklistId);
    return this.repository.listEntries(blacklist.id, page.skip, page.limit);
  }

  /**
   * Numbers (normalised) a campaign of the organization naming these blacklists must not dial: those
   * the blacklists hold, and those any blacklist of the organization holds at level `organization`.
   */
  async findBlacklisted(
    organizationId: string,
    blacklistIds: string[],
    phoneNumbers: string[],
  ): Promise<Set<string>> {
    if (phoneNumbers.length === 0) return new Set();
    return this.repository.findBlacklisted(
      organizationId,
      blacklistIds.filter(isUuid),
      phoneNumbers,
    );
  }
}
