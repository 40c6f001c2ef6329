import { CALL_IN_PROGRESS_REASON, CallLog, formatCallLength } from '../domain/call-log.js';

/** The spec's call log fields, exactly (`recording_urls` only on the single read). */
export interface CallLogResponse {
  id: string;
  to: string;
  from_: string;
  created_at: string;
  call_length: string;
  call_ended_reason: string;
  call_categorization: Record<string, unknown> | null;
  agent_data: Record<string, unknown>;
  campaign_target_id: string | null;
  post_call_data: Record<string, unknown> | null;
  qa: Record<string, unknown> | null;
  transcripts: Record<string, string>[];
  recording_urls?: string[];
}

export function presentCallLog(log: CallLog): CallLogResponse {
  return {
    id: String(log.id),
    to: log.to,
    from_: log.from,
    created_at: log.createdAt.toISOString(),
    call_length: formatCallLength(log.durationSeconds),
    call_ended_reason: log.endedReason ?? CALL_IN_PROGRESS_REASON,
    call_categorization: log.callCategorization,
    agent_data: log.agentData,
    campaign_target_id: log.targetId,
    post_call_data: log.postCallData,
    qa: log.qa,
    transcripts: log.transcripts,
  };
}

export function presentCallLogDetail(log: CallLog, includeRecordings: boolean): CallLogResponse {
  return { ...presentCallLog(log), recording_urls: includeRecordings ? log.recordingUrls : [] };
}
