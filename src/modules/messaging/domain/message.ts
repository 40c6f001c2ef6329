/**
 * Texts: a message sent to or received from a recipient, and the pure rules around it (when a call is
 * followed by a text, the simulator's outcomes, reply keywords). Plain TypeScript, camelCase here,
 * snake_case on the wire.
 */
import type { SmsFollowUp } from '../../campaign/domain/campaign.js';
import {
  fillPlaceholders,
  type TemplateData,
} from '../../provider-connection/domain/twiml-template.js';

export const MESSAGE_DIRECTIONS = ['outbound', 'inbound'] as const;
export type MessageDirection = (typeof MESSAGE_DIRECTIONS)[number];

/**
 * `queued`: waiting to be sent (the calling rules may hold it); `sent`: the provider took it;
 * `delivered` / `undelivered` / `failed`: final for outbound texts (`failed` also when our rules refused
 * it: `error_code` says which); `received`: an inbound text.
 */
export const MESSAGE_STATUSES = [
  'queued',
  'sent',
  'delivered',
  'undelivered',
  'failed',
  'received',
] as const;
export type MessageStatus = (typeof MESSAGE_STATUSES)[number];

/** Statuses after which an outbound text never changes: `message.status` is sent for these. */
export const FINAL_STATUSES: readonly MessageStatus[] = ['delivered', 'undelivered', 'failed'];

/** How far along a status is: a late callback of an earlier status never moves a text back. */
const STATUS_RANK: Record<MessageStatus, number> = {
  queued: 0,
  sent: 1,
  delivered: 2,
  undelivered: 2,
  failed: 2,
  received: 2,
};

/** Whether a text in `from` may move to `to` (forward only; a final status is never replaced). */
export function advancesStatus(from: MessageStatus, to: MessageStatus): boolean {
  return STATUS_RANK[to] > STATUS_RANK[from];
}

export function statusRank(status: MessageStatus): number {
  return STATUS_RANK[status];
}

/** Error codes of texts our own rules stopped (the providers' codes are their own numbers). */
export const TEXT_REFUSALS = {
  do_not_call: 'The number is on the do-not-call list',
  campaign_cancelled: 'The campaign was cancelled before the text was sent',
  no_phone_number: 'The target has no number to text',
  calling_rules: 'The calling rules allow no text within 14 days',
  texts_not_supported: "The connection's provider does not send texts",
  provider_error: 'The provider refused the text',
} as const;
export type TextRefusal = keyof typeof TEXT_REFUSALS;

/** What a target does once its follow-up text is settled: the call's decision. */
export interface TargetContinuation {
  status: string;
  resolution: string | null;
  category: string | null;
  subcategory: string | null;
  outcome: string;
  retryAt: string | null;
}

/** Kept with a follow-up text: what its target becomes, and instead when the campaign was cancelled. */
export interface FollowUpContinuation {
  next: TargetContinuation;
  ifCancelled: TargetContinuation;
}

export interface Message {
  id: string;
  organizationId: string;
  campaignId: string | null;
  targetId: string | null;
  callLogId: number | null;
  /** The connection that sends (or received) it; null: the organization's default, else the simulator. */
  providerConnectionId: string | null;
  /** `simulated`, `twilio`: set when sent or received. */
  provider: string | null;
  direction: MessageDirection;
  to: string;
  from: string | null;
  body: string;
  status: MessageStatus;
  providerMessageId: string | null;
  errorCode: string | null;
  errorMessage: string | null;
  /** What an inbound text asked for (STOP, START, HELP), or null. */
  keyword: ReplyKeyword;
  /** A follow-up text's continuation (null once applied is not tracked: the target's status tells). */
  continuation: FollowUpContinuation | null;
  /** Held by the calling rules until then. */
  sendAfter: Date | null;
  createdAt: Date;
  updatedAt: Date;
  sentAt: Date | null;
  settledAt: Date | null;
}

/** The follow-up text's body: the template's placeholders filled from the target's data and patient. */
export function renderTextTemplate(template: string, target: TemplateData): string {
  return fillPlaceholders(template, target);
}

/**
 * Whether an attempt whose target decision is `decision` is followed by a text: its category is
 * listed, and with `last_attempt` only when no retry follows. A call whose outcome is unknown (lost) is
 * never followed: nobody knows whether the person was reached.
 */
export function followsWithText(
  setting: SmsFollowUp | null,
  decision: { status: string; category: string | null },
  lost: boolean,
): boolean {
  if (!setting || lost || decision.category === null) return false;
  if (!setting.on_categories.includes(decision.category)) return false;
  return setting.after === 'each_attempt' || decision.status !== 'Scheduled';
}

/**
 * The simulator's texts: the two digits before the last four (which pick a simulated call's outcome)
 * pick the text's (`+1 5555 90 0000`: a no-answer call, then an undelivered text).
 */
export const SIMULATED_TEXT_OUTCOMES: Record<
  string,
  { status: MessageStatus; errorCode: string | null }
> = {
  '90': { status: 'undelivered', errorCode: '30003' },
  '91': { status: 'failed', errorCode: '30006' },
};

export function simulatedTextOutcome(to: string): (typeof SIMULATED_TEXT_OUTCOMES)[string] {
  return SIMULATED_TEXT_OUTCOMES[simulatorDigits(to)] ?? { status: 'delivered', errorCode: null };
}

/** The digits of a number that pick what the simulator does: the two before the last four. */
const simulatorDigits = (to: string) => to.replace(/\D/g, '').slice(-6, -4);

/** The simulator's replies: `92`: the recipient answers STOP, `93`: a free-text answer. */
export const SIMULATED_REPLIES: Record<string, string> = {
  '92': 'STOP',
  '93': 'Thanks, I will call you back tomorrow.',
};

export function simulatedReply(to: string): string | null {
  return SIMULATED_REPLIES[simulatorDigits(to)] ?? null;
}

/** Carrier opt-out keywords (CTIA; Twilio's defaults): alone in the message, any case. */
export const OPT_OUT_WORDS = [
  'STOP',
  'STOPALL',
  'UNSUBSCRIBE',
  'CANCEL',
  'END',
  'QUIT',
  'REVOKE',
  'OPTOUT',
] as const;
export const OPT_IN_WORDS = ['START', 'UNSTOP'] as const;
export const HELP_WORDS = ['HELP', 'INFO'] as const;

export type ReplyKeyword = 'opt_out' | 'opt_in' | 'help' | null;

/** What an inbound text asks for: one keyword alone (spaces and a final period allowed), or nothing. */
export function replyKeyword(body: string): ReplyKeyword {
  const word = body
    .trim()
    .replace(/[.!]+$/, '')
    .toUpperCase();
  if ((OPT_OUT_WORDS as readonly string[]).includes(word)) return 'opt_out';
  if ((OPT_IN_WORDS as readonly string[]).includes(word)) return 'opt_in';
  if ((HELP_WORDS as readonly string[]).includes(word)) return 'help';
  return null;
}
