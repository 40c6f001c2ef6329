import { Tx } from '../../../../common/persistence/unit-of-work.js';

export interface PlacedCall {
  phoneNumber: string;
  callLogId: number;
  placedAt: Date;
}

/**
 * Every call placed, by organization and number: what the caps and state limits count. Written and
 * read inside the claim's transaction, after `RecipientLocks.lock` on the numbers.
 */
export abstract class CallLedger {
  /** Each number's calls placed at or after `since` (numbers without any are left out). */
  abstract recentCalls(
    tx: Tx,
    organizationId: string,
    phoneNumbers: string[],
    since: Date,
  ): Promise<Map<string, Date[]>>;

  /** Records the calls; a number's entries older than `forgetBefore` go in the same statement. */
  abstract record(
    tx: Tx,
    organizationId: string,
    calls: PlacedCall[],
    forgetBefore: Date,
  ): Promise<void>;
}
