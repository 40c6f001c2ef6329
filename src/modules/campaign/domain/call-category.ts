import type { CallOutcome } from '../../telephony/domain/call-outcome.js';
import type { CampaignType } from './campaign.js';

/** The outcomes the payor, patient and provider enums name as the outcome is named. */
const AS_NAMED = {
  GOOD: 'GOOD',
  NO_RESPONSE: 'NO_RESPONSE',
  VOICEMAIL: 'VOICEMAIL',
  DISCONNECTED: 'DISCONNECTED',
  HUMAN_ONLY: 'HUMAN_ONLY',
} as const;

/**
 * Each campaign type has its own category enum (spec: Enumerations); this is how an outcome reads in
 * it. null: the enum has no fitting value. DNC_REQUESTED is a category of patient campaigns only; the
 * other patient-facing enums read it as the call's goal not reached, payor and provider ones have
 * nothing that fits (docs/compliance.md).
 */
const CATEGORY_BY_TYPE: Record<CampaignType, Record<CallOutcome, string | null>> = {
  payor: { ...AS_NAMED, TECHNICAL_FAILURE: 'SERVICE_NOT_AVAILABLE', DNC_REQUESTED: null },
  patient: {
    ...AS_NAMED,
    TECHNICAL_FAILURE: 'SERVICE_NOT_AVAILABLE',
    DNC_REQUESTED: 'DNC_REQUESTED',
  },
  provider: { ...AS_NAMED, TECHNICAL_FAILURE: null, DNC_REQUESTED: null },
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

export function categoryOf(type: CampaignType, outcome: CallOutcome): string | null {
  return CATEGORY_BY_TYPE[type]?.[outcome] ?? null;
}
