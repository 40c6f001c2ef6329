/**
 * What an ended call attempt means for its target: the state machine after `Post-processing`. Pure:
 * every input (campaign settings, attempt number, outcome, now) is a parameter.
 */
import type { CampaignType } from '../../campaign/domain/campaign.js';
import type { TargetStatus } from '../../target/domain/target.js';

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

/** Worth another attempt while attempts are left (DECISIONS: Statuses). */
const RETRYABLE: readonly CallOutcome[] = [
  'NO_RESPONSE',
  'VOICEMAIL',
  'DISCONNECTED',
  'TECHNICAL_FAILURE',
];

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

/** Payor-like campaigns retrieve data (retrieved / not_retrieved); the others reach people. */
function resolutionOf(type: CampaignType, success: boolean): string {
  if (type === 'payor') return success ? 'retrieved' : 'not_retrieved';
  return success ? 'successful' : 'unsuccessful';
}

/**
 * Each campaign type has its own category enum (spec: Enumerations); this is how an outcome reads in
 * it. null: the enum has no fitting value. DNC_REQUESTED is a category of patient campaigns only; the
 * other patient-facing enums read it as the call's goal not reached, payor and provider ones have
 * nothing that fits (docs/compliance.md).
 */
const CATEGORY_BY_TYPE: Record<CampaignType, Record<CallOutcome, string | null>> = {
  payor: {
    GOOD: 'GOOD',
    NO_RESPONSE: 'NO_RESPONSE',
    VOICEMAIL: 'VOICEMAIL',
    DISCONNECTED: 'DISCONNECTED',
    HUMAN_ONLY: 'HUMAN_ONLY',
    TECHNICAL_FAILURE: 'SERVICE_NOT_AVAILABLE',
    DNC_REQUESTED: null,
  },
  patient: {
    GOOD: 'GOOD',
    NO_RESPONSE: 'NO_RESPONSE',
    VOICEMAIL: 'VOICEMAIL',
    DISCONNECTED: 'DISCONNECTED',
    HUMAN_ONLY: 'HUMAN_ONLY',
    TECHNICAL_FAILURE: 'SERVICE_NOT_AVAILABLE',
    DNC_REQUESTED: 'DNC_REQUESTED',
  },
  provider: {
    GOOD: 'GOOD',
    NO_RESPONSE: 'NO_RESPONSE',
    VOICEMAIL: 'VOICEMAIL',
    DISCONNECTED: 'DISCONNECTED',
    HUMAN_ONLY: 'HUMAN_ONLY',
    TECHNICAL_FAILURE: null,
    DNC_REQUESTED: null,
  },
  patient_incoming: {
    GOOD: 'SUCCESSFUL_CALL',
    NO_RESPONSE: 'NO_RESPONSE',
    VOICEMAIL: 'NOT_CONNECTED',
    DISCONNECTED: 'CALL_DROPPED',
    HUMAN_ONLY: 'TRANSFER',
    TECHNICAL_FAILURE: 'NOT_CONNECTED',
    DNC_REQUESTED: 'UNSUCCESSFUL_CALL',
  },
  patient_incoming_scheduling: {
    GOOD: 'DEFLECTED',
    NO_RESPONSE: 'NO_RESPONSE',
    VOICEMAIL: 'NO_RESPONSE',
    DISCONNECTED: 'USER_EARLY_DISCONNECT',
    HUMAN_ONLY: 'TRANSFER_SOP',
    TECHNICAL_FAILURE: 'UNRESOLVED',
    DNC_REQUESTED: 'UNRESOLVED',
  },
  patient_outgoing_scheduling: {
    GOOD: 'DEFLECTED',
    NO_RESPONSE: 'NO_RESPONSE',
    VOICEMAIL: 'VOICEMAIL',
    DISCONNECTED: 'USER_EARLY_DISCONNECT',
    HUMAN_ONLY: 'TRANSFER_SOP',
    TECHNICAL_FAILURE: 'UNRESOLVED',
    DNC_REQUESTED: 'UNRESOLVED',
  },
  patient_billing: {
    GOOD: 'RESOLVED',
    NO_RESPONSE: 'NO_RESPONSE',
    VOICEMAIL: 'VOICEMAIL',
    DISCONNECTED: 'FAST_USER_HANG_UP',
    HUMAN_ONLY: 'TRANSFER_SOP',
    TECHNICAL_FAILURE: 'UNRESOLVED',
    DNC_REQUESTED: 'UNRESOLVED',
  },
};

/** How a voicemail drop went (the spec's VoicemailSubCategory). */
export const VOICEMAIL_SUBCATEGORIES = ['DELIVERED', 'NOT_DELIVERED', 'NO_MAILBOX'] as const;
export type VoicemailSubcategory = (typeof VOICEMAIL_SUBCATEGORIES)[number];

/** The subcategory of an outcome when its provider reports none (a voicemail: left). */
const SUBCATEGORY: Partial<Record<CallOutcome, string>> = {
  HUMAN_ONLY: 'MID_CALL',
  VOICEMAIL: 'DELIVERED',
  TECHNICAL_FAILURE: 'TECHNICAL_ISSUE',
};

const OUTCOME_TEXT: Record<CallOutcome, string> = {
  GOOD: 'Call completed',
  NO_RESPONSE: 'No answer',
  VOICEMAIL: 'Reached voicemail',
  DISCONNECTED: 'Call could not be connected',
  HUMAN_ONLY: 'A person must follow up',
  TECHNICAL_FAILURE: 'Technical failure',
  DNC_REQUESTED: 'Asked not to be called again',
};

export function categoryOf(type: CampaignType, outcome: CallOutcome): string | null {
  return CATEGORY_BY_TYPE[type]?.[outcome] ?? null;
}

export interface AttemptContext {
  campaignType: CampaignType;
  maxAttempts: number;
  retryDelayMinutes: number;
  /** 1-based number of the attempt that just ended. */
  attempt: number;
  outcome: CallOutcome;
  now: Date;
  /** The call was placed but its outcome is unknown (see WORKER_LOST, DEADLINE_EXPIRED). */
  lost?: boolean;
}

export interface TargetDecision {
  status: TargetStatus;
  resolution: string | null;
  category: string | null;
  subcategory: string | null;
  outcome: string;
  /** Set when the target goes back to `Scheduled` for another attempt. */
  retryAt: Date | null;
}

export function decideAfterAttempt(c: AttemptContext): TargetDecision {
  const category = categoryOf(c.campaignType, c.outcome);
  const subcategory = SUBCATEGORY[c.outcome] ?? null;
  const outcome = OUTCOME_TEXT[c.outcome];
  if (c.outcome === 'DNC_REQUESTED') {
    // The person said so: never another attempt, and no person needs to review it.
    return {
      status: 'Finished',
      resolution: resolutionOf(c.campaignType, false),
      category,
      subcategory,
      outcome,
      retryAt: null,
    };
  }
  if (c.outcome === 'GOOD') {
    return {
      status: 'Finished',
      resolution: resolutionOf(c.campaignType, true),
      category,
      subcategory,
      outcome,
      retryAt: null,
    };
  }
  if (c.lost) {
    // Dialling again could call someone a second time about the same thing.
    return {
      status: 'To review',
      resolution: null,
      category,
      subcategory,
      outcome: 'Call outcome unknown',
      retryAt: null,
    };
  }
  if (c.outcome === 'HUMAN_ONLY') {
    return { status: 'To review', resolution: null, category, subcategory, outcome, retryAt: null };
  }
  if (RETRYABLE.includes(c.outcome) && c.attempt < c.maxAttempts) {
    const retryAt = new Date(c.now.getTime() + c.retryDelayMinutes * 60_000);
    return { status: 'Scheduled', resolution: null, category, subcategory, outcome, retryAt };
  }
  return {
    status: c.outcome === 'TECHNICAL_FAILURE' ? 'Failed' : 'Finished',
    resolution: resolutionOf(c.campaignType, false),
    category,
    subcategory,
    outcome,
    retryAt: null,
  };
}

/** A blacklisted number is never dialled (DECISIONS: Targets). */
export function blacklistedDecision(type: CampaignType): TargetDecision {
  return {
    status: 'Finished',
    resolution: resolutionOf(type, false),
    category: 'BLACKLISTED_PHONE',
    subcategory: null,
    outcome: 'Phone number is blacklisted',
    retryAt: null,
  };
}

/** A number on the organization's do-not-call list ends as a blacklisted one does. */
export function doNotCallDecision(type: CampaignType): TargetDecision {
  return { ...blacklistedDecision(type), outcome: 'Phone number is on the do-not-call list' };
}

/** A call a team's pre-dial check refused (its reason is in the target's timeline). */
export function refusedByCheckDecision(type: CampaignType): TargetDecision {
  return {
    status: 'Failed',
    resolution: resolutionOf(type, false),
    category: null,
    subcategory: null,
    outcome: 'Refused by a pre-dial check',
    retryAt: null,
  };
}

const UNDIALABLE_OUTCOME = {
  no_phone_number: 'No phone number to call',
  no_calling_window: 'Calling window and operating hours never overlap',
  calling_rules: 'The calling rules allow no call within 14 days',
} as const;

/**
 * A target with no number to dial, whose number and campaign windows never overlap, or that the
 * organization's calling rules (quiet hours, state hours, restricted dates) allow no time within 14
 * days.
 */
export function undialableDecision(
  type: CampaignType,
  reason: keyof typeof UNDIALABLE_OUTCOME,
): TargetDecision {
  const category =
    reason === 'no_phone_number'
      ? ['payor', 'patient', 'provider'].includes(type)
        ? 'INVALID_PHONE_NUMBER'
        : null
      : type === 'payor'
        ? 'NO_OPERATING_HOURS'
        : null;
  return {
    status: 'Failed',
    resolution: resolutionOf(type, false),
    category,
    subcategory: null,
    outcome: UNDIALABLE_OUTCOME[reason],
    retryAt: null,
  };
}

/** What a cancelled campaign's targets end with (the outcome text says why). */
export const CAMPAIGN_CANCELLED_OUTCOME = 'Campaign cancelled';

/**
 * A target of a cancelled campaign that was still to be called (`Pending`, `Scheduled`, `Waiting`, or
 * a retry the cancel overtook): `Finished`, unsuccessful, no category, outcome `Campaign cancelled`.
 */
export function cancelledDecision(type: CampaignType): TargetDecision {
  return {
    status: 'Finished',
    resolution: resolutionOf(type, false),
    category: null,
    subcategory: null,
    outcome: CAMPAIGN_CANCELLED_OUTCOME,
    retryAt: null,
  };
}
