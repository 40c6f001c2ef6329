/**
 * The organization's do-not-call list: numbers no campaign of the organization dials, whatever its
 * blacklists. A number is listed by the person asking during a call (outcome `DNC_REQUESTED`) or by
 * the organization through the API (a letter, an email); it is taken off only through the API, with a
 * reason, and the removal is kept.
 */

import type { ChangeActor } from './change-actor.js';

/** Who put a number on the list. */
export type DoNotCallSource =
  | { type: 'call'; campaignId: string; targetId: string; callLogId: number }
  /** Through the API: by an API key or a person signed in (a letter, an email). */
  | { type: 'api'; addedBy: ChangeActor }
  /** An opt-out reply (STOP, ...): the inbound message, and the target it answered when known. */
  | { type: 'sms'; messageId: string; campaignId: string | null; targetId: string | null };

/** When, why and by whom (a key or a person) a number was taken off the list. */
export interface DoNotCallRemoval {
  at: Date;
  reason: string;
  removedBy: ChangeActor;
}

/** One listing of a number: listed while `removal` is null. */
export interface DoNotCallEntry {
  organizationId: string;
  /** E.164, as normalised everywhere (`common/phone/phone-number.ts`). */
  phoneNumber: string;
  reason: string;
  source: DoNotCallSource;
  createdAt: Date;
  removal: DoNotCallRemoval | null;
}

export type NewDoNotCallEntry = Omit<DoNotCallEntry, 'removal'>;

/** The words a listing by an opt-out reply carries as its reason. */
export const OPTED_OUT_BY_TEXT = 'Replied to a text to opt out';

/** The words a listing by a call carries as its reason. */
export const ASKED_DURING_CALL = 'Asked not to be called again during a call';
