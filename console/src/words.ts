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
    [
      /^quiet hours: (\d{2}:\d{2}) in (\S+), calls from (\d{2}:\d{2})/,
      (m) =>
        `Too early or too late where the person lives: it is ${m[1]} there (${zoneWords(m[2])}), and calls start at ${m[3]} their time (your calling rules’ quiet hours).`,
    ],
  ];
  for (const [pattern, words] of rules) {
    const m = pattern.exec(reason);
    if (m) return words(m);
  }
  return reason.charAt(0).toUpperCase() + reason.slice(1);
}

/** What each target status means, as a sentence (shown on hover and where a status is explained). */
const STATUS_SENTENCES: Record<string, string> = {
  Pending: 'Added but not started: it is called once the campaign’s calls are triggered.',
  Scheduled: 'Will be called when its planned time comes and the calling rules allow it.',
  Waiting: 'Waits for a step (a form, an EHR event) to be reported before it is called.',
  'In Progress': 'Being called now.',
  'Post-processing': 'The call has ended; its outcome is being read.',
  'SMS Scheduled': 'A text message is about to be sent; then it goes on as the call decided.',
  'To review': 'Needs a person: decide in the review queue whether it is done or called again.',
  Finished: 'Done: no more calls.',
  Failed: 'No more calls: every attempt was used, or the number cannot be called.',
};

/** A target status as a sentence; the status itself when unknown. */
export function statusSentence(status: string): string {
  return STATUS_SENTENCES[status] ?? status;
}

/**
 * Who did something: a key or a person by their name (the answer's own `name`, or for a key the names
 * the page could read), never by a bare id.
 */
export interface Actor {
  type: string;
  id: string | null;
  name?: string;
}
export function actorWords(
  actor: Actor,
  keyNames: ReadonlyMap<string, string> = new Map(),
): string {
  switch (actor.type) {
    case 'api_key': {
      const name = actor.name ?? (actor.id ? keyNames.get(actor.id) : undefined);
      return name ? `the API key “${name}”` : 'an API key';
    }
    case 'user':
      return actor.name ?? 'a person signed in';
    case 'worker':
      return 'the service (calling on schedule)';
    case 'provider':
      return 'the phone call itself';
    default:
      return 'the service';
  }
}

/** A timeline event's facts, as `GET /targets/{id}/events` gives them. */
export interface TimelineFacts {
  kind: string;
  status: string | null;
  reason: string;
  data: Record<string, unknown>;
}

const str = (v: unknown): string | null => (typeof v === 'string' && v !== '' ? v : null);
const localWhen = (iso: string | null): string | null => {
  if (!iso) return null;
  const d = new Date(iso);
  return Number.isNaN(d.getTime())
    ? iso
    : d.toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' });
};

/** After a call or a move, what happens next, from the status the target went to. */
function nextWords(status: string | null, data: Record<string, unknown>): string {
  const at = localWhen(str(data.next_attempt_at) ?? str(data.scheduled_time));
  switch (status) {
    case 'Scheduled':
      return at ? `It will be called again ${at}.` : 'It will be called again.';
    case 'Finished':
      return 'Done: no more calls.';
    case 'Failed':
      return 'No more calls.';
    case 'To review':
      return 'It now needs a person: see the review queue.';
    case 'Waiting':
      return str(data.step) ? `It waits for the step “${str(data.step)}”.` : 'It waits for a step.';
    case 'SMS Scheduled':
      return 'A text message is sent next.';
    case 'Pending':
      return 'It is not started.';
    default:
      return '';
  }
}

/**
 * A timeline entry as a sentence for a coordinator, built from its kind, status and data (the API's
 * terse `reason`, e.g. `finished after GOOD (attempt 1 of 2)`, stays the detail line for support).
 */
export function timelineWords(e: TimelineFacts): string {
  const d = e.data ?? {};
  const outcome = str(d.category) ?? str(d.outcome);
  switch (e.kind) {
    case 'added':
      return e.status === 'Scheduled'
        ? 'Added to the campaign and scheduled to be called.'
        : e.status === 'Waiting'
          ? `Added to the campaign; ${nextWords('Waiting', d).replace(/^It/, 'it')}`
          : 'Added to the campaign; not started until its calls are triggered.';
    case 'call_started':
      return typeof d.attempt === 'number' ? `Call placed (attempt ${d.attempt}).` : 'Call placed.';
    case 'call_ended':
      return `Call ended: ${outcome ? codeWords(outcome).toLowerCase() : 'no outcome'}. ${nextWords(e.status, d)}`.trim();
    case 'status_changed': {
      if (
        /^review: done|review done|marked done/i.test(e.reason) ||
        (d.from === 'To review' && e.status === 'Finished')
      )
        return 'Reviewed by a person: marked done.';
      if (d.from === 'To review' && e.status === 'Scheduled')
        return 'Reviewed by a person: to be called again.';
      const lead = outcome ? `${codeWords(outcome)}. ` : '';
      if (!outcome && e.status === 'Scheduled') {
        const at = localWhen(str(d.scheduled_time));
        return at ? `Scheduled to be called ${at}.` : 'Scheduled to be called.';
      }
      const next = nextWords(e.status, d);
      return `${lead}${next || `Now ${e.status ?? 'changed'}.`}`;
    }
    case 'input_edited': {
      const keys = Array.isArray(d.keys) ? (d.keys as string[]) : [];
      return keys.length ? `Its data was edited (${keys.join(', ')}).` : 'Its data was edited.';
    }
    case 'deferred': {
      const at = localWhen(str(d.scheduled_time));
      const moved = at ? `Its call was moved to ${at}` : 'Its call was moved to later';
      return `${moved}${deferredWhy(e.reason)}.`;
    }
    case 'step_data':
      return str(d.step) ? `The step “${str(d.step)}” was reported.` : 'A step was reported.';
    case 'notification': {
      const status = d.delivery_status;
      return status === null || status === undefined
        ? 'Nothing was sent to your systems: this campaign has no webhook URL.'
        : `Your systems were notified (${codeWords(String(status)).toLowerCase()}).`;
    }
    case 'deleted':
      return 'Deleted.';
    default:
      return e.reason.charAt(0).toUpperCase() + e.reason.slice(1);
  }
}

/** Why a call was moved, from the rule the service named first in its words. */
function deferredWhy(reason: string): string {
  if (/^quiet hours/.test(reason)) return ': too early or too late where the person lives';
  if (/^outside calling window/.test(reason)) return ': outside the campaign’s calling hours';
  if (/^restricted date/.test(reason)) return ': a day without calls';
  if (/calls? (in|per) (24|7)/.test(reason)) return ': enough calls to this number for now';
  return '';
}

/** A calling-rule decision's rule and action in words (the codes kept for the hover). */
const RULE_WORDS: Record<string, string> = {
  quiet_hours: 'Quiet hours where the person is',
  state_hours: 'The state’s calling hours',
  state_limit: 'The state’s limit of calls a day',
  organization_limit: 'Your limit of calls a day to one number',
  restricted_date: 'A day without calls (holiday)',
  do_not_call: 'The do-not-call list',
};
export function ruleWords(rule: string): string {
  return RULE_WORDS[rule] ?? codeWords(rule);
}
export function decisionWords(action: string, until: string | null): string {
  if (action === 'refused') return 'Not called';
  const at = localWhen(until);
  return at ? `Call moved to ${at}` : 'Call moved to later';
}

/**
 * A quiet-hours decision's API words (`quiet hours: 06:12 in America/Los_Angeles, calls from 08:00`) as
 * a sentence; other rules' words are kept as the service wrote them.
 */
export function decisionReasonWords(reason: string): string {
  const quiet = /^quiet hours: (\d{2}:\d{2}) in (\S+), calls from (\d{2}:\d{2})/.exec(reason);
  if (quiet)
    return `It was ${quiet[1]} where the person is (${zoneWords(quiet[2])}); calls start at ${quiet[3]} there.`;
  return reason.charAt(0).toUpperCase() + reason.slice(1);
}

/** An IANA zone as people say it: `Pacific/Honolulu` -> `Honolulu time`. */
export function zoneWords(zone: string): string {
  const city = zone.split('/').pop()?.replace(/_/g, ' ') ?? zone;
  return `${city} time`;
}

/** The campaign types in words, in the order a create form offers them (the code stays on hover). */
export const CAMPAIGN_TYPE_WORDS: Record<string, string> = {
  patient: 'Calls to patients',
  payor: 'Calls to payors (insurers)',
  provider: 'Calls to providers (doctors’ offices)',
  patient_outgoing_scheduling: 'Scheduling calls to patients',
  patient_billing: 'Billing calls to patients',
  patient_incoming: 'Patients calling in',
  patient_incoming_scheduling: 'Patients calling in to schedule',
};

/** A sample patient's data, to preview a message with placeholders as a patient would read it. */
const SAMPLE_PATIENT: Record<string, string> = {
  first_name: 'Maria',
  last_name: 'Lopez',
  appointment_date: 'March 14',
  date_of_birth: '1962-03-14',
  external_id: 'MRN-1007',
  phone_number: '+16172531217',
};

/**
 * A message's `{{patient.x}}` and `{{input_data.x}}` placeholders filled from the sample patient
 * (`[x]` when unknown), as the service fills them from a target's patient and input data.
 */
export function previewText(template: string): string {
  return template.replace(
    /\{\{\s*(?:input_data|patient(?:\.extra_data)?)\.([\w.]+)\s*\}\}/g,
    (_m, key: string) =>
      key in SAMPLE_PATIENT ? SAMPLE_PATIENT[key] : `[${key.replace(/_/g, ' ')}]`,
  );
}
