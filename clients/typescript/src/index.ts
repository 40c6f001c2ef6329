/**
 * A typed client for the Campaign Calling Service, generated from its OpenAPI document
 * (openapi-typescript types in schema.d.ts, requests by openapi-fetch). Regenerate the types with
 * `npm run openapi:write` at the repository root.
 */
import createClient, { type Client, type ClientOptions } from 'openapi-fetch';
import type { components, operations, paths } from './schema.js';

export type { components, operations, paths };
export type CampaignCallingClient = Client<paths>;

export interface CampaignCallingClientOptions extends Omit<ClientOptions, 'baseUrl'> {
  /** Where the service runs, e.g. `https://calls.example.org`. */
  baseUrl: string;
  /** An API key of your organization, sent as `X-API-Key`. */
  apiKey: string;
}

export function createCampaignCallingClient({
  baseUrl,
  apiKey,
  headers,
  ...options
}: CampaignCallingClientOptions): CampaignCallingClient {
  return createClient<paths>({
    ...options,
    baseUrl,
    headers: { ...(headers as Record<string, string> | undefined), 'X-API-Key': apiKey },
  });
}
