import { Tx } from '../../../../common/persistence/unit-of-work.js';

/**
 * `message.status` (an outbound text reached a final status) and `message.received` (a reply matched to
 * a target), docs/webhooks.md. No body, no numbers: receivers read the message through the API.
 */
export interface MessageEvent {
  type: 'message.status' | 'message.received';
  organizationId: string;
  campaignId: string;
  targetId: string;
  messageId: string;
  direction: 'outbound' | 'inbound';
  status: string;
  errorCode: string | null;
  at: Date;
}

/** Records the events in the outbox, in the transaction that changed the messages. */
export abstract class MessageEventOutbox {
  abstract recordAll(tx: Tx, events: MessageEvent[]): Promise<void>;
}
