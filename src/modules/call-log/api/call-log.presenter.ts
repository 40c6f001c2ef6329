import { CALL_IN_PROGRESS_REASON, CallLog, formatCallLength } from '../domain/call-log.js';
import type { CallLogDetailResponseDto, CallLogResponseDto } from './dto/call-log.dto.js';

/** The spec's call log fields, exactly (`recording_urls` only on the single read). */
export function presentCallLog(log: CallLog): CallLogResponseDto {
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

export function presentCallLogDetail(
  log: CallLog,
  includeRecordings: boolean,
): CallLogDetailResponseDto {
  return { ...presentCallLog(log), recording_urls: includeRecordings ? log.recordingUrls : [] };
}
