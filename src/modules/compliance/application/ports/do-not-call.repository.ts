import { Tx } from '../../../../common/persistence/unit-of-work.js';
import type {
  DoNotCallEntry,
  DoNotCallRemoval,
  NewDoNotCallEntry,
} from '../../domain/do-not-call.js';

export interface DoNotCallListQuery {
  skip: number;
  limit: number;
  /** Only numbers containing these digits (null: all). */
  digits: string | null;
  /** With the removed listings too (the history), not only the numbers listed now. */
  includeRemoved: boolean;
}

/**
 * The `do_not_call_entries` table. Every statement is set-based: a batch of numbers is one statement.
 * Writers hold the numbers' `RecipientLocks` in `tx` (see `DoNotCallService`).
 */
export abstract class DoNotCallRepository {
  /** Of these numbers of the organization, those listed now, with when they were listed. */
  abstract listedAmong(
    tx: Tx | null,
    organizationId: string,
    phoneNumbers: string[],
  ): Promise<Map<string, Date>>;

  /**
   * Lists the numbers not listed yet (one entry per organization and number: the first of the batch
   * wins), in batch order; for the others, the entry that already lists them, which is left as it is.
   */
  abstract add(
    tx: Tx | null,
    entries: NewDoNotCallEntry[],
  ): Promise<{ added: DoNotCallEntry[]; alreadyListed: DoNotCallEntry[] }>;

  /** Takes these listed numbers off the list; returns their entries, removed, in number order. */
  abstract remove(
    tx: Tx | null,
    organizationId: string,
    phoneNumbers: string[],
    removal: DoNotCallRemoval,
  ): Promise<DoNotCallEntry[]>;

  /** The organization's entries, oldest first (created_at, then insertion), a page at a time. */
  abstract list(
    organizationId: string,
    query: DoNotCallListQuery,
  ): Promise<{ items: DoNotCallEntry[]; total: number }>;
}
