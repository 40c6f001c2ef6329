/**
 * Twilio's Message resource statuses and error codes in our words (Twilio docs: "Message resource",
 * "Messaging error codes"). Pure tables.
 */
import type { ProviderTextStatus } from './provider-text.js';

/** Every status Twilio reports for an outbound message; null: not an outbound status (inbound ones). */
const STATUS: Record<string, ProviderTextStatus | null> = {
  accepted: 'sent',
  scheduled: 'sent',
  queued: 'sent',
  sending: 'sent',
  sent: 'sent',
  delivered: 'delivered',
  read: 'delivered',
  undelivered: 'undelivered',
  failed: 'failed',
  canceled: 'failed',
  receiving: null,
  received: null,
};

export function twilioTextStatus(status: string | undefined): ProviderTextStatus | null {
  return status === undefined ? null : (STATUS[status] ?? null);
}

/** The messaging error codes a care team meets most, in words; others keep Twilio's code only. */
export const TWILIO_TEXT_ERRORS: Record<string, string> = {
  '21211': "Invalid 'To' phone number",
  '21408': 'Permission to send to this region is not enabled',
  '21610': 'The recipient replied STOP to this sender (unsubscribed)',
  '21614': "'To' number is not a valid mobile number",
  '30003': 'Unreachable destination handset',
  '30004': 'Message blocked',
  '30005': 'Unknown destination handset',
  '30006': 'Landline or unreachable carrier',
  '30007': 'Message filtered by the carrier',
  '30008': 'Unknown error',
};

export function twilioTextError(code: string | number | null | undefined): {
  errorCode: string | null;
  errorMessage: string | null;
} {
  if (code === null || code === undefined || code === '' || code === 0) {
    return { errorCode: null, errorMessage: null };
  }
  const errorCode = String(code);
  return { errorCode, errorMessage: TWILIO_TEXT_ERRORS[errorCode] ?? `Twilio error ${errorCode}` };
}
