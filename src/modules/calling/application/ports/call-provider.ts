import type { CallOutcome } from '../../domain/call-outcome';

export interface PlaceCallRequest {
  callLogId: number;
  targetId: string;
  campaignId: string;
  campaignType: string;
  attempt: number;
  to: string;
  from: string;
  inputData: Record<string, unknown>;
}

/** Everything a call produced; the engine maps `outcome` to the campaign's categories. */
export interface CallResult {
  outcome: CallOutcome;
  /** Provider-specific words for why the call ended (shown as `call_ended_reason`). */
  endedReason: string;
  durationSeconds: number;
  providerCallId: string | null;
  transcripts: Record<string, string>[];
  agentData: Record<string, unknown>;
  postCallData: Record<string, unknown> | null;
  qa: Record<string, unknown> | null;
  recordingUrls: string[];
  /** Merged into the target's output_data. */
  outputData: Record<string, unknown>;
  subcategory?: string | null;
}

/**
 * Telephony. `placeCall` resolves when the call has ended (a carrier adapter waits for its status
 * callback); it is called outside any transaction. Throwing counts as a technical failure. A new
 * carrier (Twilio, Telnyx, a SIP bridge) is a new adapter of this port, selected by CALL_PROVIDER.
 */
export abstract class CallProvider {
  abstract readonly name: string;
  abstract placeCall(request: PlaceCallRequest): Promise<CallResult>;
}
