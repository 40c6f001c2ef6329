/**
 * The console's words for the API's codes: one table for every enum value shown to a person (call
 * categories and subcategories, resolutions, campaign states, delivery statuses), the waiting reasons
 * told as sentences, and validation messages without pydantic's prefix. The code itself stays on hover
 * (a `title`), so an operator can still match what the API, the logs and the webhooks say.
 */

/** Words for the codes whose plain spelling would not say what they mean. */
const CODE_WORDS: Record<string, string> = {
  GOOD: 'Good call',
  NO_RESPONSE: 'No answer',
  TRANSFER: 'Transferred',
  TRANSFER_FAILED: 'Transfer failed',
  TRANSFER_HANG_UP: 'Hung up during transfer',
  TRANSFER_BY_USER: 'Transferred at the caller’s request',
  TRANSFER_BY_ASSISTANT: 'Transferred by the agent',
  INSTANT_TRANSFER: 'Transferred at once',
  TRANSFER_SOP: 'Transferred by procedure',
  VOICEMAIL: 'Voicemail',
  SERVICE_NOT_AVAILABLE: 'Service not available',
  HUMAN_ONLY: 'Needs a person',
  AFTER_HOURS: 'After hours',
  CLOSED_FOR_HOLIDAYS: 'Closed for holidays',
  IVR_LOOP: 'Stuck in a phone menu',
  INPUT_DATA_ISSUE: 'Problem with the input data',
  DATA_ISSUE: 'Problem with the data',
  WRONG_PHONE_NUMBER: 'Wrong phone number',
  INVALID_PHONE_NUMBER: 'Invalid phone number',
  NOT_FOUND: 'Not found',
  UNPROCESSABLE_BY_PHONE: 'Cannot be done by phone',
  DISCONNECTED: 'Disconnected',
  NOT_ALL_DATA_POINTS_RETRIEVED: 'Some answers missing',
  MEMBER_CONSENT_REQUIRED: 'Member consent required',
  SLA_EXPIRED: 'Deadline passed',
  PAYOR_NOT_SUPPORTED: 'Payor not supported',
  NO_OPERATING_HOURS: 'No opening hours known',
  CALLBACK_REQUESTED: 'Asked to be called back',
  MANAGER_REQUESTED: 'Asked for a manager',
  DNC_REQUESTED: 'Asked not to be called',
  WRONG_USER: 'Wrong person',
  NOT_INTERESTED_RIGHT_NOW: 'Not interested now',
  BLACKLISTED_PHONE: 'Blocked number',
  PROVIDER_NO_LONGER_AT_LOCATION: 'Provider no longer there',
  CALL_DROPPED: 'Call dropped',
  SUCCESSFUL_CALL: 'Successful call',
  UNSUCCESSFUL_CALL: 'Unsuccessful call',
  NOT_CONNECTED: 'Not connected',
  SWITCHBOARD: 'Switchboard',
  DEFLECTED: 'Deflected',
  USER_EARLY_DISCONNECT: 'Caller hung up early',
  FAST_USER_HANG_UP: 'Caller hung up at once',
  UNRESOLVED: 'Unresolved',
  RESOLVED: 'Resolved',
  AUTOMATICALLY_BYPASSED: 'Skipped automatically',
  PATIENT_NOT_FOUND: 'Patient not found',
  HUMAN_REQUESTED: 'Asked for a person',
  MID_CALL: 'During the call',
  STARTING_CALL: 'At the start of the call',
  NO_MAILBOX: 'No mailbox',
  FAX: 'Fax line',
  // Resolutions.
  retrieved: 'Data retrieved',
  not_retrieved: 'Data not retrieved',
  successful: 'Successful',
  unsuccessful: 'Unsuccessful',
  // Campaign states and webhook delivery statuses.
  active: 'Active',
  paused: 'Paused',
  cancelled: 'Cancelled',
  pending: 'Waiting to send',
  sending: 'Sending',
  delivered: 'Delivered',
  failed: 'Failed',
};

/**
 * A code in words: from the table, else spelled out (`CLOSED_FOR_HOLIDAYS` -> `Closed for holidays`).
 * Target statuses (`To review`) are words already and come back as they are.
 */
export function codeWords(code: string): string {
  const known = CODE_WORDS[code];
  if (known) return known;
  if (!/^[A-Za-z0-9]+(_[A-Za-z0-9]+)*$/.test(code)) return code;
  const spaced = code.toLowerCase().replace(/_/g, ' ');
  return spaced.charAt(0).toUpperCase() + spaced.slice(1);
}

/**
 * Why a campaign's estimated end is as late as it is: `held by quiet hours (3) until <until>` from the
 * stats' `estimate_held_by_rule` and `estimate_held_until` (already in the operator's local time).
 */
export function heldWords(until: string, byRule: Record<string, number>): string {
  const rules = Object.entries(byRule)
    .map(([rule, n]) => `${codeWords(rule).toLowerCase()} (${n})`)
    .join(', ');
  return `held by ${rules || 'calling rules'} until ${until}`;
}

/** A validation message for a person: pydantic's `Value error, ` (or `Assertion failed, `) prefix dropped. */
export function messageWords(msg: string): string {
  return msg.replace(/^(Value error|Assertion failed), /, '');
}

/**
 * Who a call came from: its caller id when it is a phone number; the service's placeholder for a
 * campaign without one (`DeprecatedLocalTest`, the reference's) is no number to show a person.
 */
export function callerWords(from: string | null | undefined): string {
  if (!from) return '';
  return /^\+?[0-9 ()-]{4,}$/.test(from)
    ? `from ${from} `
    : 'from the test line (no caller id set) ';
}

/** `2026-11-23 14:05 UTC` (as the API words it) -> the operator's local time. */
function utcToLocal(text: string): string {
  const m = /^(\d{4}-\d{2}-\d{2}) (\d{2}:\d{2}) UTC$/.exec(text.trim());
  if (!m) return text;
  const d = new Date(`${m[1]}T${m[2]}:00Z`);
  return Number.isNaN(d.getTime())
    ? text
    : d.toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' });
}

/**
 * A target's `waiting_reason` (terse, with the API's names: `not launched: trigger calls or add with
 * launch=true`) as a sentence for a care coordinator, naming the console's buttons. A reason not known
 * here (a calling-policy rule's own words) is shown as the service wrote it.
 */
export function waitingWords(reason: string): string {
  const rules: [RegExp, (m: RegExpExecArray) => string][] = [
    [
      /^not launched\b/,
      () =>
        'Not started yet: press Trigger calls on the campaign page, or import targets with “Schedule the new targets”.',
    ],
    [/^campaign paused$/, () => 'The campaign is paused: press Resume on the campaign page.'],
    [/^campaign cancelled$/, () => 'The campaign is cancelled: no call starts again.'],
    [
      /^waiting for step (.+)$/,
      (m) =>
        m[1] === '(none)'
          ? 'Waiting for its next step to be reported.'
          : `Waiting for the step “${m[1]}” to be reported before the next call.`,
    ],
    [/^SMS scheduled$/, () => 'A text message is scheduled; no call until it is sent.'],
    [
      /^calling window and operating hours never overlap$/,
      () =>
        'Never callable as set: the campaign’s calling hours and this number’s opening hours never overlap. Change the calling window in the campaign’s settings.',
    ],
    [
      /^outside calling window: opens (.+)$/,
      (m) => `Outside the calling hours: calls can start again ${m[1]}.`,
    ],
    [
      /^retry (\d+) of (\d+) after (\S+) at (.+)$/,
      (m) =>
        `The last call ended “${codeWords(m[3])}”: attempt ${m[1]} of ${m[2]} is planned for ${utcToLocal(m[4])}.`,
    ],
    [/^scheduled for (.+)$/, (m) => `Planned for ${utcToLocal(m[1])}.`],
    [
      /^campaign at max_concurrent_calls (\d+)\/(\d+)$/,
      (m) =>
        `The campaign already has ${m[1]} of its ${m[2]} calls at once in progress: this one starts when one ends.`,
    ],
    [/^due: /, () => 'Due now: it will be called in a moment.'],
  ];
  for (const [pattern, words] of rules) {
    const m = pattern.exec(reason);
    if (m) return words(m);
  }
  return reason.charAt(0).toUpperCase() + reason.slice(1);
}
