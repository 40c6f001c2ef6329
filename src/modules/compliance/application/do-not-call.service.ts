import { Injectable } from '@nestjs/common';
import { Clock } from '../../../common/clock/clock.js';
import {
  type CountryCode,
  DEFAULT_COUNTRY,
  normalizePhoneNumber,
  phoneNumberAt,
} from '../../../common/phone/phone-number.js';
import { Tx, UnitOfWork } from '../../../common/persistence/unit-of-work.js';
import {
  ASKED_DURING_CALL,
  DoNotCallEntry,
  NewDoNotCallEntry,
  OPTED_OUT_BY_TEXT,
} from '../domain/do-not-call.js';
import type { ChangeActor } from '../domain/change-actor.js';
import { DoNotCallRepository } from './ports/do-not-call.repository.js';
import { RecipientLocks } from './ports/recipient-locks.js';

/** A number whose owner asked, during a call, not to be called again. */
export interface DoNotCallFromCall {
  organizationId: string;
  /** The number dialled (the call log's `to`). */
  phoneNumber: string;
  campaignId: string;
  targetId: string;
  callLogId: number;
  /** Why, in words (default: "Asked not to be called again during a call"). */
  reason?: string;
  /** When the call ended. */
  at: Date;
}

export interface DoNotCallListRequest {
  skip: number;
  limit: number;
  /** Digits the number contains (anything else in it is ignored); null or empty: every number. */
  phoneNumber?: string | null;
  /** The whole history: removed listings too. */
  includeRemoved?: boolean;
}

/**
 * The organization's do-not-call list (docs/compliance.md): a listed number is never dialled by any of
 * its campaigns. Every write takes the numbers' `RecipientLocks` first, in the caller's transaction,
 * as the dispatcher's claim does before it reads `listedAmong`: a claim that runs while a call lists
 * its number waits, then sees it.
 */
@Injectable()
export class DoNotCallService {
  constructor(
    private readonly repository: DoNotCallRepository,
    private readonly locks: RecipientLocks,
    private readonly uow: UnitOfWork,
    private readonly clock: Clock,
  ) {}

  /**
   * Which of these numbers (normalised, as targets store them) the organization lists now, with since
   * when. One statement for the whole batch; inside `tx` (the claim's, after its locks) when given.
   */
  async listedAmong(
    tx: Tx | null,
    organizationId: string,
    phoneNumbers: string[],
  ): Promise<Map<string, Date>> {
    const unique = [...new Set(phoneNumbers)];
    if (unique.length === 0) return new Map();
    return this.repository.listedAmong(tx, organizationId, unique);
  }

  /**
   * Lists the numbers ended calls dialled, in the calls' completion transaction: one lock statement
   * per organization, one insert. Idempotent: a number already listed keeps its first entry.
   */
  async addFromCalls(tx: Tx, entries: DoNotCallFromCall[]): Promise<void> {
    if (entries.length === 0) return;
    const listings: NewDoNotCallEntry[] = entries.map((e) => ({
      organizationId: e.organizationId,
      // Call logs hold the number as the target stored it: normalised already.
      phoneNumber: normalizePhoneNumber(e.phoneNumber) ?? e.phoneNumber,
      reason: e.reason ?? ASKED_DURING_CALL,
      source: {
        type: 'call',
        campaignId: e.campaignId,
        targetId: e.targetId,
        callLogId: e.callLogId,
      },
      createdAt: e.at,
    }));
    await this.addLocked(tx, listings);
  }

  /**
   * Lists the number of an opt-out reply at once, in the reply's transaction (so no campaign calls or
   * texts it after the reply is recorded). Idempotent: a number already listed keeps its first entry.
   */
  async addFromText(
    tx: Tx,
    entry: {
      organizationId: string;
      phoneNumber: string;
      messageId: string;
      campaignId: string | null;
      targetId: string | null;
      at: Date;
    },
  ): Promise<void> {
    const listing: NewDoNotCallEntry = {
      organizationId: entry.organizationId,
      phoneNumber: normalizePhoneNumber(entry.phoneNumber) ?? entry.phoneNumber,
      reason: OPTED_OUT_BY_TEXT,
      source: {
        type: 'sms',
        messageId: entry.messageId,
        campaignId: entry.campaignId,
        targetId: entry.targetId,
      },
      createdAt: entry.at,
    };
    await this.addLocked(tx, [listing]);
  }

  /**
   * Lists numbers on the organization's word (a letter, an email), in request order. A number given
   * twice counts once (its first reason); one already listed keeps its entry and is reported as such.
   * Numbers without `+` are read in `country` (the organization's) and listed in E.164.
   */
  async add(
    organizationId: string,
    addedBy: ChangeActor,
    entries: { phone_number: string; reason: string }[],
    country: CountryCode = DEFAULT_COUNTRY,
  ): Promise<{ added: DoNotCallEntry[]; alreadyListed: DoNotCallEntry[] }> {
    const createdAt = this.clock.now();
    const listings = entries.map((e, i): NewDoNotCallEntry => ({
      organizationId,
      phoneNumber: phoneNumberAt(e.phone_number, country, ['phone_numbers', i, 'phone_number']),
      reason: e.reason,
      source: { type: 'api', addedBy },
      createdAt,
    }));
    return this.uow.run((tx) => this.addLocked(tx, listings));
  }

  /**
   * Takes numbers off the list (consent given again), keeping each removal with its reason and who removed it.
   * Answers the removed entries and the numbers that were not listed, in request order.
   */
  async remove(
    organizationId: string,
    removedBy: ChangeActor,
    phoneNumbers: string[],
    reason: string,
    country: CountryCode = DEFAULT_COUNTRY,
  ): Promise<{ removed: DoNotCallEntry[]; notListed: string[] }> {
    const numbers = [
      ...new Set(phoneNumbers.map((p, i) => phoneNumberAt(p, country, ['phone_numbers', i]))),
    ];
    const at = this.clock.now();
    const removed = await this.uow.run(async (tx) => {
      await this.locks.lock(tx, organizationId, numbers);
      return this.repository.remove(tx, organizationId, numbers, { at, reason, removedBy });
    });
    const byNumber = new Map(removed.map((e) => [e.phoneNumber, e]));
    return {
      removed: numbers.flatMap((n) => byNumber.get(n) ?? []),
      notListed: numbers.filter((n) => !byNumber.has(n)),
    };
  }

  /** The organization's entries, oldest first, `limit` at a time after `skip`, with their total. */
  list(organizationId: string, request: DoNotCallListRequest) {
    const digits = (request.phoneNumber ?? '').replace(/\D/g, '');
    return this.repository.list(organizationId, {
      skip: request.skip,
      limit: request.limit,
      digits: digits === '' ? null : digits,
      includeRemoved: request.includeRemoved ?? false,
    });
  }

  /**
   * Lists the entries once their numbers are locked: each organization's in one statement,
   * organizations in one order.
   */
  private async addLocked(tx: Tx, listings: NewDoNotCallEntry[]) {
    const byOrganization = Map.groupBy(listings, (l) => l.organizationId);
    for (const organizationId of [...byOrganization.keys()].sort()) {
      const numbers = byOrganization.get(organizationId)!.map((l) => l.phoneNumber);
      await this.locks.lock(tx, organizationId, numbers);
    }
    return this.repository.add(tx, listings);
  }
}
