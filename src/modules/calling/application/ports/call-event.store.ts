import { Tx } from '../../../../common/persistence/unit-of-work.js';
import type { CallEvent } from '../../../telephony/application/ports/call-provider.js';

/** An event as stored: matched to its call log, and its time settled (the provider's or the receipt's). */
export type ReceivedCallEvent = CallEvent & { callLogId: number; at: Date };

/** Provider events, stored once per (connection, key): the idempotency of the events route. */
export abstract class CallEventStore {
  /** Stores those not stored yet (with the call log they belong to); returns the keys it stored. */
  abstract storeNew(tx: Tx, connection: string, events: ReceivedCallEvent[]): Promise<Set<string>>;
}
