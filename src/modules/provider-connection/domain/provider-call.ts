/** Our ids, as we attach them to a call (provider metadata, or the callback URL's query). */
export function callLogIdOf(value: unknown): number | null {
  const n = typeof value === 'string' ? Number(value) : value;
  return typeof n === 'number' && Number.isSafeInteger(n) && n >= 0 ? n : null;
}

/**
 * The voicemail message a call leaves, unfilled: its campaign's, else the connection's; null: none.
 * `fromCampaign`: the call carries a mark of it (metadata, or the callback URL's query) so that its
 * report is read as a voicemail drop even on a connection with no message of its own.
 */
export function voicemailMessageOf(
  campaignMessage: string | null | undefined,
  settings: Record<string, unknown>,
): { text: string; fromCampaign: boolean } | null {
  if (typeof campaignMessage === 'string') return { text: campaignMessage, fromCampaign: true };
  return typeof settings.voicemail_message === 'string'
    ? { text: settings.voicemail_message, fromCampaign: false }
    : null;
}

/** The mark a call leaving its campaign's voicemail message carries (metadata key, query parameter). */
export const CAMPAIGN_VOICEMAIL_MARK = 'voicemail_drop';

/**
 * Our ids as a call's metadata (Vapi's, Retell's), which the provider echoes in its reports, with the
 * mark of a campaign's voicemail message when the call leaves one.
 */
export function callMetadata(
  call: { callLogId: number; targetId: string; campaignId: string; attempt: number },
  voicemail: { fromCampaign: boolean } | null,
): Record<string, unknown> {
  return {
    call_log_id: call.callLogId,
    target_id: call.targetId,
    campaign_id: call.campaignId,
    attempt: call.attempt,
    ...(voicemail?.fromCampaign ? { [CAMPAIGN_VOICEMAIL_MARK]: true } : {}),
  };
}
