import { Tx } from '../../../../common/persistence/unit-of-work.js';

/**
 * A transaction-long lock per number dialled within an organization. The claim that counts a number's
 * calls against the caps and reads the do-not-call list, and the completion that adds the number to
 * that list, take it first: two dispatchers never both place the call that passes a cap, and a number
 * listed by a call that just ended is seen by the next claim.
 */
export abstract class RecipientLocks {
  /** Held until `tx` ends; taken in one order (sorted) so that two claims never deadlock. */
  abstract lock(tx: Tx, organizationId: string, phoneNumbers: string[]): Promise<void>;
}
