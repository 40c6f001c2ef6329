import { ConflictError } from '../../../../common/errors/domain-errors.js';
import type { CallOutcome } from '../../domain/call-outcome.js';

/** What the engine asks a provider to dial. `callLogId` is ours: providers that can, store it. */
export interface StartCallRequest {
  callLogId: number;
  targetId: string;
  campaignId: string;
  campaignType: string;
  attempt: number;
  to: string;
  from: string;
  inputData: Record<string, unknown>;
  /** The target's patient as given (`{{patient.<field>}}` placeholders read it); absent or null: none. */
  patient?: object | null;
  /**
   * The campaign's voicemail message (`{{patient.<field>}}` and `{{input_data.<field>}}`
   * placeholders, unfilled); null: the
   * provider connection's `voicemail_message`, if any (absent: the same). A provider that cannot leave
   * messages ignores it.
   */
  voicemailMessage?: string | null;
  /** Where the provider posts this call's events: `{PUBLIC_BASE_URL}/api/v1/telephony/{name}/events`. */
  eventsUrl: string;
}

/** Everything an ended call produced; the engine maps `outcome` to the campaign's categories. */
export interface CallResult {
  outcome: CallOutcome;
  /** Provider-specific words for why the call ended (shown as `call_ended_reason`). */
  endedReason: string;
  durationSeconds: number;
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
 * A result that knows no more than its outcome, why it ended and `known`: where `known` says
 * nothing, no duration, transcript, data or recording.
 */
export function callResult(
  outcome: CallOutcome,
  endedReason: string,
  known: Partial<CallResult> = {},
): CallResult {
  return {
    outcome,
    endedReason,
    durationSeconds: 0,
    transcripts: [],
    agentData: {},
    postCallData: null,
    qa: null,
    recordingUrls: [],
    outputData: {},
    ...known,
  };
}

/** One thing a provider reports about a call. */
export interface CallEvent {
  /** Unique per connection: the provider's event id, or its call id + kind. Stored once. */
  key: string;
  kind: 'started' | 'ended';
  providerCallId: string | null;
  /** Our call log id, when the provider echoes it back. */
  callLogId: number | null;
  /**
   * When it happened, by the provider's report; null when the report gives no time (or none that
   * reads as one): the service records the time it received the event, from its Clock.
   */
  at: Date | null;
  /** For `ended`. */
  result?: CallResult;
}

/** A call as the engine knows it: the provider's call id when it answered one, and our call log id. */
export interface CallRef {
  providerCallId: string | null;
  callLogId: number;
}

/** The raw request on `POST /api/v1/telephony/{connection}/events`, as received. */
export interface ProviderRequest {
  rawBody: Buffer;
  contentType: string;
  headers: Record<string, string>;
  url: string;
}

/**
 * Telephony. A call is asynchronous: `startCall` asks the provider to dial and returns its call id at
 * once (it is called outside any transaction; throwing ends the attempt as a technical failure); the
 * outcome arrives later as events on the events route, authenticated and parsed by `readEvents`.
 * A new provider (Twilio, Vapi, Retell, a SIP bridge) is a new adapter of this port.
 */
export abstract class CallProvider {
  /**
   * The `{connection}` of the events route and the call logs' `provider`: a process-wide provider's
   * CALL_PROVIDER name (`simulated`, `http`) or an organization's provider connection id.
   */
  abstract readonly name: string;
  abstract startCall(request: StartCallRequest): Promise<{ providerCallId: string }>;
  /**
   * What the provider knows of a call (by its id, or by our call log id where it stores it), as an
   * event; null when it cannot tell. Used for calls past their deadline.
   */
  abstract getCall(ref: CallRef): Promise<CallEvent | null>;
  /**
   * Authenticates the request (UnauthorizedError: 401, nothing changes) and parses its events.
   * Asynchronous because some SDK verifiers are (Retell's uses Web Crypto).
   */
  abstract readEvents(request: ProviderRequest): Promise<CallEvent[]>;
  /**
   * The body the events route answers an authenticated request with; null: `{"status": "ok"}`. For a
   * provider that asks the same route what the call does next (Twilio's TwiML requests).
   */
  reply(_request: ProviderRequest): Promise<ProviderReply | null> {
    return Promise.resolve(null);
  }
}

/** A body of the provider's own format, answered on the events route. */
export interface ProviderReply {
  contentType: string;
  body: string;
}

/**
 * A provider connection that exists but cannot be used as stored: its credentials cannot be read
 * (SECRETS_KEY changed), its `http` secret is not one the agent protocol can sign with (stored before
 * the API checked it), or its type is unknown to this version. Not transient: the dispatcher holds
 * the campaign's calls with these words instead of trying again at once; the provider events route
 * answers 409 (a clash with the server's state, as unreadable credentials are).
 */
export class ConnectionUnusableError extends ConflictError {
  constructor(
    readonly connectionId: string,
    readonly reason: string,
  ) {
    super(`provider connection ${connectionId} cannot be used: ${reason}`);
  }
}

/** What of a campaign chooses its provider (the campaign's own fields of the same names). */
export interface CampaignConnection {
  organizationId: string;
  providerConnectionId: string | null;
}

/**
 * The providers calls go through. A campaign's calls are placed through its provider connection, else
 * its organization's default connection, else the process-wide CALL_PROVIDER; an existing call is
 * reached again by the connection name recorded on its call log.
 */
export abstract class CallProviders {
  /** Throws ConnectionUnusableError when the campaign's connection cannot be used as stored. */
  abstract forCampaign(campaign: CampaignConnection): Promise<CallProvider>;
  /** By connection name (see `CallProvider.name`); null when there is no such connection. */
  abstract get(connection: string): Promise<CallProvider | null>;
}
