/**
 * What a call provider reports about an ended call, in words every module shares: the outcome,
 * whatever the campaign type, and how a voicemail drop went. What an outcome means for a target is the
 * calling module's decision (calling/domain/call-outcome.ts); how it reads in a campaign type's
 * categories is the campaign's (campaign/domain/call-category.ts).
 */
/** What a call provider reports, independent of the campaign type. */
export const CALL_OUTCOMES = [
  'GOOD',
  'NO_RESPONSE',
  'VOICEMAIL',
  'DISCONNECTED',
  'HUMAN_ONLY',
  'TECHNICAL_FAILURE',
  // The person asked not to be called again: the number goes on the organization's do-not-call list.
  'DNC_REQUESTED',
] as const;
export type CallOutcome = (typeof CALL_OUTCOMES)[number];

/**
 * The `call_ended_reason` of a call whose worker died while it was in progress. Whether the person was
 * reached is unknown, so the target is never dialled again automatically: a person reviews it.
 */
export const WORKER_LOST = 'worker-lost';

/**
 * The `call_ended_reason` of an accepted call with no final event by its deadline (MAX_CALL_MINUTES)
 * that its provider could not tell about: as unknown as a lost one.
 */
export const DEADLINE_EXPIRED = 'deadline-expired';

/** The number could not be reached at all: the next attempt tries the other number. */
export const isFailedConnect = (outcome: string | null) => outcome === 'DISCONNECTED';

/** How a voicemail drop went (the spec's VoicemailSubCategory). */
export const VOICEMAIL_SUBCATEGORIES = ['DELIVERED', 'NOT_DELIVERED', 'NO_MAILBOX'] as const;
export type VoicemailSubcategory = (typeof VOICEMAIL_SUBCATEGORIES)[number];
