/**
 * Retell: what a call's `disconnection_reason` (in the `call_ended` / `call_analyzed` webhooks, or a
 * call read back with GET /v2/get-call/{id}) means for the call. Values from Retell's public
 * documentation of the call object. Documented in docs/providers.md.
 */
import type { CallResult } from '../../telephony/application/ports/call-provider.js';
import type { CallOutcome, VoicemailSubcategory } from '../../telephony/domain/call-outcome.js';
import { isRecord, transcriptTurns } from './call-result.js';

const BY_REASON: Record<string, CallOutcome> = {
  user_hangup: 'GOOD',
  agent_hangup: 'GOOD',
  voicemail_reached: 'VOICEMAIL',
  dial_no_answer: 'NO_RESPONSE',
  dial_busy: 'NO_RESPONSE',
  user_declined: 'NO_RESPONSE',
  inactivity: 'NO_RESPONSE',
  dial_failed: 'DISCONNECTED',
  invalid_destination: 'DISCONNECTED',
  marked_as_spam: 'DISCONNECTED',
  // A phone tree answered, not the person: the other number may reach them.
  ivr_reached: 'DISCONNECTED',
  // Transferred (or a person took over, or the transfer failed): a person follows up.
  call_transfer: 'HUMAN_ONLY',
  transfer_bridged: 'HUMAN_ONLY',
  transfer_cancelled: 'HUMAN_ONLY',
  call_take_over: 'HUMAN_ONLY',
  // Cut off mid-conversation: whether it reached its goal is for a person to judge.
  max_duration_reached: 'HUMAN_ONLY',
  concurrency_limit_reached: 'TECHNICAL_FAILURE',
  no_concurrency_fallback: 'TECHNICAL_FAILURE',
  no_valid_payment: 'TECHNICAL_FAILURE',
  scam_detected: 'TECHNICAL_FAILURE',
  telephony_provider_permission_denied: 'TECHNICAL_FAILURE',
  telephony_provider_unavailable: 'TECHNICAL_FAILURE',
  sip_routing_error: 'TECHNICAL_FAILURE',
  registered_call_timeout: 'TECHNICAL_FAILURE',
  manual_stopped: 'TECHNICAL_FAILURE',
};

/**
 * The outcome of a `disconnection_reason`. Every `error_*` reason is a technical failure; a reason
 * this table does not know goes to a person rather than being retried. A call that Retell's analysis
 * found in voicemail counts as voicemail whatever ended it.
 */
export function retellOutcome(reason: string, inVoicemail = false): CallOutcome {
  if (inVoicemail) return 'VOICEMAIL';
  const known = BY_REASON[reason];
  if (known) return known;
  return reason.startsWith('error_') ? 'TECHNICAL_FAILURE' : 'HUMAN_ONLY';
}

/**
 * With a `voicemail_option` message, Retell speaks it on reaching voicemail and hangs up
 * (`voicemail_reached`, or `agent_hangup`): DELIVERED. The mailbox hanging up first (`user_hangup`
 * while in voicemail) cut the message off: NOT_DELIVERED. Retell does not report a missing or full
 * mailbox apart from other endings.
 */
export function retellVoicemailSubcategory(reason: string): VoicemailSubcategory {
  return reason === 'user_hangup' ? 'NOT_DELIVERED' : 'DELIVERED';
}

/** The fields of a Retell call object that we read. */
export interface RetellCallReport {
  call_id: string;
  disconnection_reason?: string | null;
  duration_ms?: number | null;
  start_timestamp?: number | null;
  end_timestamp?: number | null;
  recording_url?: string | null;
  transcript_object?: { role?: string; content?: string }[] | null;
  call_analysis?: {
    call_summary?: string | null;
    in_voicemail?: boolean | null;
    user_sentiment?: string | null;
    call_successful?: boolean | null;
    custom_analysis_data?: unknown;
  } | null;
}

const ROLES: Record<string, string> = { agent: 'assistant', user: 'user' };

/**
 * The call as the engine keeps it. A webhook is JSON from outside: every field is checked for its
 * type before use (a `disconnection_reason` that is not text is `unknown`, not a crash).
 */
export function retellCallResult(call: RetellCallReport, voicemailDrop = false): CallResult {
  const analysis: RetellCallReport['call_analysis'] = isRecord(call.call_analysis)
    ? call.call_analysis
    : null;
  const reason =
    typeof call.disconnection_reason === 'string' ? call.disconnection_reason : 'unknown';
  const number = (v: unknown) => (typeof v === 'number' ? v : null);
  const start = number(call.start_timestamp);
  const end = number(call.end_timestamp);
  const durationMs = number(call.duration_ms) ?? (start && end ? end - start : 0);
  const transcripts = transcriptTurns(call.transcript_object, ROLES, 'content');
  const outcome = retellOutcome(reason, analysis?.in_voicemail === true);
  return {
    outcome,
    ...(voicemailDrop && outcome === 'VOICEMAIL'
      ? { subcategory: retellVoicemailSubcategory(reason) }
      : {}),
    endedReason: reason,
    durationSeconds: Math.max(0, Math.round(durationMs / 1000)),
    transcripts,
    agentData: { provider: 'retell' },
    postCallData: analysis
      ? {
          summary: analysis.call_summary ?? null,
          user_sentiment: analysis.user_sentiment ?? null,
          call_successful: analysis.call_successful ?? null,
        }
      : null,
    qa:
      analysis && typeof analysis.call_successful === 'boolean'
        ? { call_successful: analysis.call_successful }
        : null,
    recordingUrls: typeof call.recording_url === 'string' ? [call.recording_url] : [],
    outputData: isRecord(analysis?.custom_analysis_data) ? analysis.custom_analysis_data : {},
  };
}
