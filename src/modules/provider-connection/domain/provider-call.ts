import { MappedCallResult } from './call-result.js';

/**
 * The provider-neutral shapes the thin provider clients speak, matching the calling engine's
 * asynchronous call port (start a call, read it back, read incoming events).
 */
export interface ProviderCallRequest {
  to: string;
  /** The campaign's caller id; a connection's own `from_number` setting wins. */
  from: string;
  inputData: Record<string, unknown>;
  callLogId: number;
  targetId: string;
  campaignId: string;
  attempt: number;
  /** Where the provider posts this call's events: `{PUBLIC_BASE_URL}/api/v1/telephony/{connection}/events`. */
  eventsUrl: string;
}

export interface ProviderCallRef {
  providerCallId: string | null;
  callLogId: number;
}

/** One thing that happened to a call; `key` makes a duplicate delivery recognisable. */
export interface ProviderCallEvent {
  key: string;
  kind: 'started' | 'ended';
  providerCallId: string | null;
  callLogId: number | null;
  at: Date;
  /** On `ended`: the call's outcome and data. */
  result?: MappedCallResult;
}

/** An HTTP request to the events route, as received (the raw body is what providers sign). */
export interface IncomingProviderRequest {
  rawBody: Buffer;
  contentType: string;
  /** Lower-case header names. */
  headers: Record<string, string>;
  /** The URL as the provider called it (PUBLIC_BASE_URL + path + query): Twilio signs it. */
  url: string;
}

/** Our ids, as we attach them to a call (provider metadata, or the callback URL's query). */
export function callLogIdOf(value: unknown): number | null {
  const n = typeof value === 'string' ? Number(value) : value;
  return typeof n === 'number' && Number.isSafeInteger(n) && n >= 0 ? n : null;
}

/**
 * What each provider's thin client does (Twilio, Vapi, Retell): no campaign logic. The engine's
 * `CallProvider` adapters wrap these. `readEvents` throws `UnauthorizedError` on a bad signature; it
 * is asynchronous because Retell's SDK verifies signatures with Web Crypto.
 */
export interface ProviderCallClient {
  startCall(req: ProviderCallRequest): Promise<{ providerCallId: string }>;
  /** Reads the call back (deadline recovery); null when the provider cannot tell. */
  getCall(ref: ProviderCallRef): Promise<ProviderCallEvent | null>;
  readEvents(req: IncomingProviderRequest): Promise<ProviderCallEvent[]>;
}
