/**
 * What an ended call attempt means for its target: the state machine after `Post-processing`. Pure:
 * every input (campaign settings, attempt number, outcome, now) is a parameter.
 */
import { categoryOf } from '../../campaign/domain/call-category.js';
import type { CampaignType } from '../../campaign/domain/campaign.js';
import type { TargetStatus } from '../../target/domain/target.js';
import type { CallOutcome } from '../../telephony/domain/call-outcome.js';

/** Worth another attempt while attempts are left (DECISIONS: Statuses). */
const RETRYABLE: readonly CallOutcome[] = [
  'NO_RESPONSE',
  'VOICEMAIL',
  'DISCONNECTED',
  'TECHNICAL_FAILURE',
];

/** Payor-like campaigns retrieve data (retrieved / not_retrieved); the others reach people. */
function resolutionOf(type: CampaignType, success: boolean): string {
  if (type === 'payor') return success ? 'retrieved' : 'not_retrieved';
  return success ? 'successful' : 'unsuccessful';
}

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
  const decided = (status: TargetStatus, resolution: string | null): TargetDecision => ({
    status,
    resolution,
    category: categoryOf(c.campaignType, c.outcome),
    subcategory: SUBCATEGORY[c.outcome] ?? null,
    outcome: OUTCOME_TEXT[c.outcome],
    retryAt: null,
  });
  if (c.outcome === 'DNC_REQUESTED') {
    // The person said so: never another attempt, and no person needs to review it.
    return decided('Finished', resolutionOf(c.campaignType, false));
  }
  if (c.outcome === 'GOOD') return decided('Finished', resolutionOf(c.campaignType, true));
  if (c.lost) {
    // Dialling again could call someone a second time about the same thing.
    return { ...decided('To review', null), outcome: 'Call outcome unknown' };
  }
  if (c.outcome === 'HUMAN_ONLY') return decided('To review', null);
  if (RETRYABLE.includes(c.outcome) && c.attempt < c.maxAttempts) {
    const retryAt = new Date(c.now.getTime() + c.retryDelayMinutes * 60_000);
    return { ...decided('Scheduled', null), retryAt };
  }
  return decided(
    c.outcome === 'TECHNICAL_FAILURE' ? 'Failed' : 'Finished',
    resolutionOf(c.campaignType, false),
  );
}

/** An end without a call: unsuccessful, with no subcategory and no retry. */
function unsuccessfulWithoutCall(
  type: CampaignType,
  status: TargetStatus,
  category: string | null,
  outcome: string,
): TargetDecision {
  return {
    status,
    resolution: resolutionOf(type, false),
    category,
    subcategory: null,
    outcome,
    retryAt: null,
  };
}

/** A blacklisted number is never dialled (DECISIONS: Targets). */
export function blacklistedDecision(type: CampaignType): TargetDecision {
  return unsuccessfulWithoutCall(
    type,
    'Finished',
    'BLACKLISTED_PHONE',
    'Phone number is blacklisted',
  );
}

/** A number on the organization's do-not-call list ends as a blacklisted one does. */
export function doNotCallDecision(type: CampaignType): TargetDecision {
  return { ...blacklistedDecision(type), outcome: 'Phone number is on the do-not-call list' };
}

/** A call a team's pre-dial check refused (its reason is in the target's timeline). */
export function refusedByCheckDecision(type: CampaignType): TargetDecision {
  return unsuccessfulWithoutCall(type, 'Failed', null, 'Refused by a pre-dial check');
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
  return unsuccessfulWithoutCall(type, 'Failed', category, UNDIALABLE_OUTCOME[reason]);
}

/** What a cancelled campaign's targets end with (the outcome text says why). */
export const CAMPAIGN_CANCELLED_OUTCOME = 'Campaign cancelled';

/**
 * A target of a cancelled campaign that was still to be called (`Pending`, `Scheduled`, `Waiting`, or
 * a retry the cancel overtook): `Finished`, unsuccessful, no category, outcome `Campaign cancelled`.
 */
export function cancelledDecision(type: CampaignType): TargetDecision {
  return unsuccessfulWithoutCall(type, 'Finished', null, CAMPAIGN_CANCELLED_OUTCOME);
}
