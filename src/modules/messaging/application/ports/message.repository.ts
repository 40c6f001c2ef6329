import { Tx } from '../../../../common/persistence/unit-of-work.js';
import type {
  FollowUpContinuation,
  Message,
  MessageStatus,
  ReplyKeyword,
} from '../../domain/message.js';

/** A follow-up text to queue. */
export interface NewOutboundText {
  organizationId: string;
  campaignId: string | null;
  targetId: string | null;
  /** The call a follow-up text follows (null: a reply to HELP). */
  callLogId: number | null;
  providerConnectionId: string | null;
  to: string;
  body: string;
  continuation: FollowUpContinuation | null;
  now: Date;
}

/** A text received from a recipient. */
export interface NewInboundText {
  organizationId: string;
  campaignId: string | null;
  targetId: string | null;
  providerConnectionId: string | null;
  provider: string;
  providerMessageId: string;
  from: string;
  to: string;
  body: string;
  keyword: ReplyKeyword;
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

  /** Records a received text; null when the provider's message id was recorded already (a replay). */
  abstract insertInbound(tx: Tx, text: NewInboundText): Promise<Message | null>;

  /** The latest text sent to `phoneNumber` by the organization: whose target a reply answers. */
  abstract latestOutboundTo(
    tx: Tx,
    organizationId: string,
    phoneNumber: string,
  ): Promise<Message | null>;

  /**
   * A provider's status report for its message id: applied only when it moves the text forward
   * (`advancesStatus`: a late `sent` after `delivered` changes nothing); the updated text, or null.
   */
  abstract advance(
    tx: Tx,
    provider: string,
    providerMessageId: string,
    report: { status: MessageStatus; errorCode: string | null; errorMessage: string | null },
    now: Date,
  ): Promise<Message | null>;

  /** Whether the provider sent a text of ours with that id. */
  abstract hasProviderMessage(
    tx: Tx,
    provider: string,
    providerMessageId: string,
  ): Promise<boolean>;

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
