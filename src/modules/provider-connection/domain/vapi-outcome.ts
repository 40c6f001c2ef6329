/**
 * Vapi: what an `end-of-call-report` server message (or a call read back with GET /call/{id}) means
 * for the call. `endedReason` values from Vapi's public documentation of the Call object; they are
 * many and grow, so families of errors are matched by prefix. Documented in docs/providers.md.
 */
import type { CallResult } from '../../telephony/application/ports/call-provider.js';
import type { CallOutcome, VoicemailSubcategory } from '../../telephony/domain/call-outcome.js';
import { isRecord, secondsBetween, transcriptTurns } from './call-result.js';

const BY_REASON: Record<string, CallOutcome> = {
  'assistant-ended-call': 'GOOD',
  'assistant-ended-call-after-message-spoken': 'GOOD',
  'assistant-ended-call-with-hangup-task': 'GOOD',
  'assistant-said-end-call-phrase': 'GOOD',
  'customer-ended-call': 'GOOD',
  'vonage-completed': 'GOOD',
  voicemail: 'VOICEMAIL',
  'customer-did-not-answer': 'NO_RESPONSE',
  'customer-busy': 'NO_RESPONSE',
  'silence-timed-out': 'NO_RESPONSE',
  'twilio-failed-to-connect-call': 'DISCONNECTED',
  'twilio-reported-customer-misdialed': 'DISCONNECTED',
  'vonage-failed-to-connect-call': 'DISCONNECTED',
  'vonage-rejected': 'DISCONNECTED',
  'vonage-disconnected': 'DISCONNECTED',
  // A transfer to a person happened or was attempted: a person follows up.
  'assistant-forwarded-call': 'HUMAN_ONLY',
  'customer-ended-call-during-transfer': 'HUMAN_ONLY',
  'customer-ended-call-before-warm-transfer': 'HUMAN_ONLY',
  'customer-ended-call-after-warm-transfer-attempt': 'HUMAN_ONLY',
  'call.forwarding.operator-busy': 'HUMAN_ONLY',
  'call.forwarding.no-answer': 'HUMAN_ONLY',
  'call.ringing.hook-executed-transfer': 'HUMAN_ONLY',
  'call.ending.hook-executed-transfer': 'HUMAN_ONLY',
  // Cut off mid-conversation: whether it reached its goal is for a person to judge.
  'exceeded-max-duration': 'HUMAN_ONLY',
};

/** Families of errors on Vapi's side or its carrier's: worth another attempt. */
const TECHNICAL_PREFIXES = [
  'pipeline-error-',
  'call.in-progress.error-',
  'call.start.error-',
  'call.ringing.error-',
  'call.forwarding.error-',
  'call-start-error-',
  'assistant-request-',
  'assistant-not-',
  'phone-call-provider-',
  'assistant-join-timed-out',
  'assistant-error',
  'worker-shutdown',
  'manually-canceled',
  'call-deleted',
  'scheduled-call-deleted',
];

/**
 * The outcome of an `endedReason`. A reason this table does not know goes to a person (HUMAN_ONLY)
 * rather than being retried: the callee may already have been spoken to.
 */
export function vapiOutcome(endedReason: string): CallOutcome {
  const known = BY_REASON[endedReason];
  if (known) return known;
  if (TECHNICAL_PREFIXES.some((p) => endedReason.startsWith(p))) return 'TECHNICAL_FAILURE';
  return 'HUMAN_ONLY';
}

/** The fields of an end-of-call report (or of a Call) that we read. */
export interface VapiCallReport {
  callId: string | null;
  endedReason: string;
  startedAt?: string | null;
  endedAt?: string | null;
  artifact?: {
    messages?: { role?: string; message?: string }[];
    recordingUrl?: string | null;
    stereoRecordingUrl?: string | null;
    transcript?: string | null;
  } | null;
  analysis?: {
    summary?: string | null;
    structuredData?: Record<string, unknown> | null;
    successEvaluation?: string | null;
  } | null;
}

const ROLES: Record<string, string> = { bot: 'assistant', assistant: 'assistant', user: 'user' };

/**
 * The report as the engine keeps it. A report is JSON from outside: every field is checked for its
 * type before use (a `messages` that is not a list is no transcript, not a crash).
 */
export function vapiCallResult(report: VapiCallReport, voicemailDrop = false): CallResult {
  const artifact: NonNullable<VapiCallReport['artifact']> = isRecord(report.artifact)
    ? report.artifact
    : {};
  const analysis: NonNullable<VapiCallReport['analysis']> = isRecord(report.analysis)
    ? report.analysis
    : {};
  const transcripts = transcriptTurns(artifact.messages, ROLES, 'message');
  const summary = analysis.summary ?? null;
  const success = analysis.successEvaluation ?? null;
  return {
    outcome: vapiOutcome(report.endedReason),
    endedReason: report.endedReason,
    durationSeconds: secondsBetween(date(report.startedAt), date(report.endedAt)),
    transcripts,
    agentData: { provider: 'vapi' },
    postCallData: summary === null ? null : { summary },
    qa: success === null ? null : { success_evaluation: success },
    recordingUrls: [artifact.recordingUrl, artifact.stereoRecordingUrl].filter(
      (u): u is string => typeof u === 'string' && u.length > 0,
    ),
    outputData: isRecord(analysis.structuredData) ? analysis.structuredData : {},
    ...(voicemailDrop ? { subcategory: vapiVoicemailSubcategory(report.endedReason) } : {}),
  };
}

/**
 * With a `voicemailMessage`, Vapi speaks it on reaching voicemail and then ends the call with reason
 * `voicemail`: DELIVERED. Vapi reports neither a message cut off nor a missing mailbox apart from
 * other endings, so those never come from Vapi. null: not a voicemail.
 */
export function vapiVoicemailSubcategory(endedReason: string): VoicemailSubcategory | null {
  return vapiOutcome(endedReason) === 'VOICEMAIL' ? 'DELIVERED' : null;
}

function date(value: string | null | undefined): Date | null {
  if (typeof value !== 'string' || !value) return null;
  const d = new Date(value);
  return Number.isNaN(d.getTime()) ? null : d;
}
