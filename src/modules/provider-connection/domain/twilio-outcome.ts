/**
 * Twilio Programmable Voice: what a status callback (`CallStatus`, with `AnsweredBy` when answering
 * machine detection ran) means for the call. From Twilio's public documentation of the Call resource
 * and of Answering Machine Detection. Documented in docs/providers.md.
 */
import type { CallOutcome, VoicemailSubcategory } from '../../telephony/domain/call-outcome.js';
import { callResult, type CallResult } from '../../telephony/application/ports/call-provider.js';

/** Statuses after which Twilio sends nothing more for the call. */
export const TWILIO_FINAL_STATUSES = [
  'completed',
  'busy',
  'no-answer',
  'failed',
  'canceled',
] as const;
/** The call was answered (it may still turn out to be a machine). */
export const TWILIO_ANSWERED_STATUS = 'in-progress';

const BY_STATUS: Record<(typeof TWILIO_FINAL_STATUSES)[number], CallOutcome> = {
  completed: 'GOOD',
  busy: 'NO_RESPONSE',
  'no-answer': 'NO_RESPONSE',
  // Twilio could not place the call as dialled (e.g. an unreachable or invalid number): the next
  // attempt tries the target's other number.
  failed: 'DISCONNECTED',
  // Canceled is our side hanging up a queued or ringing call: nothing is known about the callee.
  canceled: 'TECHNICAL_FAILURE',
};

/** `AnsweredBy` on a completed call; `human` and `unknown` keep the call a good one. */
const BY_ANSWERED_BY: Record<string, CallOutcome> = {
  machine_start: 'VOICEMAIL',
  machine_end_beep: 'VOICEMAIL',
  machine_end_silence: 'VOICEMAIL',
  machine_end_other: 'VOICEMAIL',
  // A fax line is not the person's phone: try the other number next time.
  fax: 'DISCONNECTED',
};

export const isTwilioFinalStatus = (status: string) =>
  (TWILIO_FINAL_STATUSES as readonly string[]).includes(status);

/** The outcome of a final status; null while the call is still going (queued, ringing, ...). */
export function twilioOutcome(callStatus: string, answeredBy: string | null): CallOutcome | null {
  if (!isTwilioFinalStatus(callStatus)) return null;
  const status = callStatus as (typeof TWILIO_FINAL_STATUSES)[number];
  if (status === 'completed' && answeredBy && BY_ANSWERED_BY[answeredBy]) {
    return BY_ANSWERED_BY[answeredBy];
  }
  return BY_STATUS[status];
}

/** The fields of a Twilio status callback (form-encoded) or Call resource that we read. */
export interface TwilioCallReport {
  CallSid: string;
  CallStatus: string;
  AnsweredBy?: string | null;
  /** Seconds, as a string in callbacks. */
  CallDuration?: string | number | null;
  RecordingUrl?: string | null;
}

/**
 * Voicemail drop (`DetectMessageEnd` with a `voicemail_message`): what the asynchronous AMD verdict
 * asks of the live call. A beep, or silence after the greeting: the mailbox records, so the message
 * is played. `machine_end_other`: the greeting ended with neither (a full mailbox, or one never set
 * up, says so and hangs up): there is nothing to leave the message in, so the call hangs up.
 * Anything else (a person, a fax, unknown): the call goes on as its TwiML says.
 */
export function twilioVoicemailAction(answeredBy: string): 'play' | 'hang-up' | null {
  if (answeredBy === 'machine_end_beep' || answeredBy === 'machine_end_silence') return 'play';
  return answeredBy === 'machine_end_other' ? 'hang-up' : null;
}

/**
 * A voicemail drop's subcategory once the call is over without our message reaching its end (the
 * message's own end is reported by its redirect: DELIVERED). No mailbox to record in: NO_MAILBOX;
 * otherwise the call ended before the message did (or before the greeting did): NOT_DELIVERED.
 */
export function twilioUndeliveredVoicemail(answeredBy: string | null): VoicemailSubcategory {
  return answeredBy === 'machine_end_other' ? 'NO_MAILBOX' : 'NOT_DELIVERED';
}

/**
 * A final report as a call result; null when the call is not over. `voicemailDrop`: the connection
 * leaves a message, so a voicemail that reaches this (the status callback, not the message's end)
 * was not delivered.
 */
export function twilioCallResult(
  report: TwilioCallReport,
  voicemailDrop = false,
): CallResult | null {
  const answeredBy = report.AnsweredBy ?? null;
  const outcome = twilioOutcome(report.CallStatus, answeredBy);
  if (!outcome) return null;
  const duration = Number(report.CallDuration ?? 0);
  const subcategory =
    voicemailDrop && outcome === 'VOICEMAIL'
      ? { subcategory: twilioUndeliveredVoicemail(answeredBy) }
      : {};
  const endedReason = answeredBy ? `${report.CallStatus}:${answeredBy}` : report.CallStatus;
  return callResult(outcome, endedReason, {
    durationSeconds: Number.isFinite(duration) ? Math.max(0, Math.round(duration)) : 0,
    agentData: { provider: 'twilio', call_status: report.CallStatus, answered_by: answeredBy },
    recordingUrls: report.RecordingUrl ? [report.RecordingUrl] : [],
    ...subcategory,
  });
}

/** The call result when the voicemail message played to its end (Twilio then followed its redirect). */
export function twilioDeliveredVoicemail(answeredBy: string): CallResult {
  return callResult('VOICEMAIL', 'voicemail-message-played', {
    agentData: { provider: 'twilio', call_status: 'in-progress', answered_by: answeredBy },
    subcategory: 'DELIVERED',
  });
}
