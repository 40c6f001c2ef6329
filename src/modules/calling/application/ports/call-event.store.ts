import { Tx } from '../../../../common/persistence/unit-of-work.js';
import type { CallEvent } from './call-provider.js';

/** Provider events, stored once per (connection, key): the idempotency of the events route. */
export abstract class CallEventStore {
  /** Stores those not stored yet (with the call log they belong to); returns the keys it stored. */
  abstract storeNew(
    tx: Tx,
    connection: string,
    events: (CallEvent & { callLogId: number })[],
  ): Promise<Set<string>>;
}
