import { Clock } from '../common/clock/clock.js';
import { Tx } from '../common/persistence/unit-of-work.js';
import { DoNotCallService } from '../modules/compliance/application/do-not-call.service.js';
import {
  DoNotCallListQuery,
  DoNotCallRepository,
} from '../modules/compliance/application/ports/do-not-call.repository.js';
import type {
  DoNotCallEntry,
  DoNotCallRemoval,
  NewDoNotCallEntry,
} from '../modules/compliance/domain/do-not-call.js';
import { InMemoryRecipientLocks } from './in-memory-recipient-locks.js';
import { InMemoryUnitOfWork, Snapshottable } from './in-memory-unit-of-work.js';
import { clone, pageOf } from './in-memory-rows.js';

/**
 * The do-not-call table in memory, in insertion order (the adapter's id), with what its partial
 * unique index enforces: at most one listed entry per organization and number.
 */
export class InMemoryDoNotCallRepository
  extends DoNotCallRepository
  implements Snapshottable<DoNotCallEntry[]>
{
  private entries: DoNotCallEntry[] = [];

  async listedAmong(_tx: Tx | null, organizationId: string, phoneNumbers: string[]) {
    const wanted = new Set(phoneNumbers);
    return new Map(
      this.entries
        .filter((e) => e.organizationId === organizationId && wanted.has(e.phoneNumber))
        .filter((e) => e.removal === null)
        .map((e) => [e.phoneNumber, new Date(e.createdAt)]),
    );
  }

  async add(_tx: Tx | null, entries: NewDoNotCallEntry[]) {
    const added: DoNotCallEntry[] = [];
    const alreadyListed: DoNotCallEntry[] = [];
    const seen = new Set<string>();
    for (const e of entries) {
      const key = `${e.organizationId}:${e.phoneNumber}`;
      if (seen.has(key)) continue;
      seen.add(key);
      const listed = this.listed(e.organizationId, e.phoneNumber);
      if (listed) {
        alreadyListed.push(clone(listed));
        continue;
      }
      const entry = clone({ ...e, removal: null });
      this.entries.push(entry);
      added.push(clone(entry));
    }
    return { added, alreadyListed };
  }

  async remove(
    _tx: Tx | null,
    organizationId: string,
    phoneNumbers: string[],
    removal: DoNotCallRemoval,
  ) {
    const removed: DoNotCallEntry[] = [];
    for (const number of new Set(phoneNumbers)) {
      const listed = this.listed(organizationId, number);
      if (!listed) continue;
      listed.removal = { ...removal, at: new Date(removal.at) };
      removed.push(clone(listed));
    }
    return removed;
  }

  async list(organizationId: string, query: DoNotCallListQuery) {
    // A stable sort: entries of one time keep their insertion order, the adapter's `id`.
    const all = this.entries
      .filter((e) => e.organizationId === organizationId)
      .filter((e) => query.includeRemoved || e.removal === null)
      .filter((e) => query.digits === null || e.phoneNumber.includes(query.digits))
      .sort((a, b) => a.createdAt.getTime() - b.createdAt.getTime());
    return pageOf(all, query.skip, query.limit);
  }

  /** Every listing in insertion order (the adapter's ids), for the retention fake that reads them. */
  table(): readonly DoNotCallEntry[] {
    return this.entries;
  }

  /** Deletes the listings `erased` picks (an erasure by the retention fake); how many went. */
  deleteWhere(erased: (entry: DoNotCallEntry) => boolean): number {
    const before = this.entries.length;
    this.entries = this.entries.filter((e) => !erased(e));
    return before - this.entries.length;
  }

  snapshot(): DoNotCallEntry[] {
    return this.entries.map(clone);
  }

  restore(state: DoNotCallEntry[]): void {
    this.entries = state.map(clone);
  }

  private listed(organizationId: string, phoneNumber: string): DoNotCallEntry | undefined {
    return this.entries.find(
      (e) =>
        e.organizationId === organizationId && e.phoneNumber === phoneNumber && e.removal === null,
    );
  }
}

/** The do-not-call service on the in-memory table (its own writes roll back on failure), with `clock`. */
export function inMemoryDoNotCall(clock: Clock): {
  repository: InMemoryDoNotCallRepository;
  service: DoNotCallService;
} {
  const repository = new InMemoryDoNotCallRepository();
  const unitOfWork = new InMemoryUnitOfWork(repository);
  const service = new DoNotCallService(
    repository,
    new InMemoryRecipientLocks(unitOfWork),
    unitOfWork,
    clock,
  );
  return { repository, service };
}
