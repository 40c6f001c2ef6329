import { Tx } from '../../../../common/persistence/unit-of-work.js';
import type { FollowUpContinuation, Message, MessageStatus } from '../../domain/message.js';

/** A follow-up text to queue. */
export interface NewOutboundText {
  organizationId: string;
  campaignId: string;
  targetId: string;
  callLogId: number;
  providerConnectionId: string | null;
  to: string;
  body: string;
  continuation: FollowUpContinuation;
  now: Date;
}

/** What sending did to a queued text. */
export interface SendOutcome {
  provider: string | null;
  providerConnectionId: string | null;
  from: string | null;
  status: MessageStatus;
  providerMessageId: string | null;
  errorCode: string | null;
  errorMessage: string | null;
  now: Date;
}

/** The `messages` table, owned by the messaging module. */
export abstract class MessageRepository {
  abstract insertOutbound(tx: Tx, texts: NewOutboundText[]): Promise<Message[]>;

  /** The organization's message (null: none, or another organization's); `tx` when given. */
  abstract findById(
    tx: Tx | null,
    organizationId: string | null,
    id: string,
  ): Promise<Message | null>;

  /** The target's messages, oldest first. */
  abstract listForTarget(organizationId: string, targetId: string): Promise<Message[]>;

  /**
   * Takes a `queued` text for sending: not taken by another sender within `leaseMs` (a sender that
   * died leaves it to the next). Null: not queued, or being sent.
   */
  abstract claimForSending(id: string, now: Date, leaseMs: number): Promise<Message | null>;

  /** A queued text held until `until` by the calling rules (the claim released). */
  abstract hold(tx: Tx, id: string, until: Date): Promise<void>;

  /** Records what sending did, only while the text is still `queued`; the text, or null. */
  abstract recordSend(tx: Tx, id: string, outcome: SendOutcome): Promise<Message | null>;
}
