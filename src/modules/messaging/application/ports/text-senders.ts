import type { ResolvedConnection } from '../../../provider-connection/domain/provider-connection.js';
import type { MessageStatus } from '../../domain/message.js';

export interface OutgoingText {
  to: string;
  /** The sender's number from the connection or campaign; null: the provider's own (the simulator). */
  from: string | null;
  body: string;
  /** Where the provider posts the text's status reports (null: the simulator posts none). */
  statusCallbackUrl: string | null;
}

/** The provider's answer to a send: its id and status (a final one when it knows already). */
export interface SentText {
  providerMessageId: string;
  from: string | null;
  status: MessageStatus;
  errorCode: string | null;
  errorMessage: string | null;
  /** The simulator's reply from the recipient (see `SIMULATED_REPLIES`); real providers post theirs. */
  reply?: string | null;
}

/** Sends texts through one provider. */
export abstract class TextSender {
  /** The provider's name, as messages record it (`simulated`, `twilio`). */
  abstract readonly provider: string;
  abstract send(text: OutgoingText): Promise<SentText>;
}

/**
 * The sender for a connection (null: the organization has none, the simulator sends), or null when the
 * connection's provider sends no texts.
 */
export abstract class TextSenders {
  abstract forConnection(connection: ResolvedConnection | null): TextSender | null;
}
