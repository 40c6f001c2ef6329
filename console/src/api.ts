/**
 * The console talks to the service only through the typed client of `clients/typescript` (generated
 * from openapi.json), on the same origin, as the person signed in: the session is an HttpOnly cookie
 * the page never sees, and every request that changes something carries the session's CSRF token
 * (`X-CSRF-Token`), held in memory only (a reload reads it again from `GET /api/v1/me`).
 */
import createClient from 'openapi-fetch';
import type {
  CampaignCallingClient,
  components,
  paths,
} from '../../clients/typescript/src/index.js';
import { messageWords } from './words.js';

export type Schemas = components['schemas'];
export type Campaign = Schemas['CampaignResponseDto'];
export type Target = Schemas['TargetResponseDto'];
export type TimelineEvent = Schemas['TimelineEventResponseDto'];
export type CallLog = Schemas['CallLogDetailResponseDto'];
export type Delivery = Schemas['WebhookDeliveryDto'];
export type DeliveryDetail = Schemas['WebhookDeliveryDetailDto'];
export type ValidationItem = Schemas['ValidationError'];
export type Me = Schemas['MeResponseDto'];

export const TARGET_STATUSES = [
  'Pending',
  'Scheduled',
  'Waiting',
  'In Progress',
  'Post-processing',
  'SMS Scheduled',
  'To review',
  'Finished',
  'Failed',
] as const;
export type TargetStatus = (typeof TARGET_STATUSES)[number];

let csrfToken: string | null = null;

/** Remembers (or forgets, on sign-out) the signed-in session's CSRF token. */
export function rememberSessionToken(token: string | null): void {
  csrfToken = token;
}

/** Headers for a request made with `fetch` itself (a file upload, a CSV download). */
export function sessionHeaders(): Record<string, string> {
  return csrfToken ? { 'X-CSRF-Token': csrfToken } : {};
}

const SAFE = new Set(['GET', 'HEAD', 'OPTIONS']);

/** The client of the signed-in person; a 401 (the session ended) calls `onUnauthorized`. */
export function makeClient(onUnauthorized?: () => void): CampaignCallingClient {
  const client = createClient<paths>({
    baseUrl: window.location.origin,
    credentials: 'same-origin',
  });
  // Which session each request went out under: a 401 for a session already signed out of (a poll in
  // flight at sign-out) must not sign out the next person.
  const sentUnder = new WeakMap<Request, string | null>();
  client.use({
    onRequest({ request }) {
      if (!SAFE.has(request.method) && csrfToken) request.headers.set('X-CSRF-Token', csrfToken);
      sentUnder.set(request, csrfToken);
      return request;
    },
    onResponse({ request, response }) {
      const current = csrfToken !== null && sentUnder.get(request) === csrfToken;
      if (response.status === 401 && current && onUnauthorized) onUnauthorized();
      return undefined;
    },
  });
  return client;
}

/** An error answer's text: FastAPI's `detail` string, or the messages of a 422 `detail` list. */
export function errorText(error: unknown, status?: number): string {
  const detail = (error as { detail?: unknown } | undefined)?.detail;
  if (typeof detail === 'string') return detail;
  if (Array.isArray(detail)) {
    return detail
      .map(
        (d: ValidationItem) =>
          `${d.loc.slice(1).join('.') || d.loc.join('.')}: ${messageWords(d.msg)}`,
      )
      .join('; ');
  }
  return status ? `The service answered ${status}` : 'The service could not be reached';
}

/**
 * A 422's items by the field they concern: `loc` `["body", "max_attempts"]` -> `max_attempts`;
 * nested places (`["body", "calling_window", "monday", 0, "end"]`) go to the top field, with the rest
 * of the path in the message so the operator sees where inside it.
 */
export function fieldErrors(error: unknown): { fields: Record<string, string[]>; other: string[] } {
  const fields: Record<string, string[]> = {};
  const other: string[] = [];
  const detail = (error as { detail?: unknown } | undefined)?.detail;
  if (!Array.isArray(detail)) {
    other.push(errorText(error));
    return { fields, other };
  }
  for (const item of detail as ValidationItem[]) {
    const [where, field, ...rest] = item.loc;
    if ((where === 'body' || where === 'query') && typeof field === 'string') {
      const inside = rest.length ? `${rest.join('.')}: ` : '';
      (fields[field] ??= []).push(`${inside}${messageWords(item.msg)}`);
    } else other.push(`${item.loc.join('.')}: ${messageWords(item.msg)}`);
  }
  return { fields, other };
}

/** One campaign, or an Error with the service's words. */
export async function readCampaign(client: CampaignCallingClient, id: string): Promise<Campaign> {
  const { data, error, response } = await client.GET('/api/v1/campaigns/{campaign_id}', {
    params: { path: { campaign_id: id } },
  });
  if (!data) throw new Error(errorText(error, response.status));
  return data;
}

/** `2026-01-02T03:04:05.000Z` -> local, readable; empty for null. */
export function when(iso: string | null | undefined): string {
  if (!iso) return '';
  const d = new Date(iso);
  return Number.isNaN(d.getTime()) ? iso : d.toLocaleString();
}
