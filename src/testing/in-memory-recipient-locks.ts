import { Tx } from '../common/persistence/unit-of-work.js';
import { RecipientLocks } from '../modules/compliance/application/ports/recipient-locks.js';

/** In memory nothing is shared between processes: the fakes serve one test, so there is nothing to lock. */
export class InMemoryRecipientLocks extends RecipientLocks {
  async lock(_tx: Tx, _organizationId: string, _phoneNumbers: string[]): Promise<void> {}
}
