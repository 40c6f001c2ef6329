import type { Role } from './access.js';

/**
 * Who is acting. Today always an API key; a person who signs in will be another `kind` with the same
 * role and campaign scope, so that the permission check and the scope checks need not change.
 */
export interface Principal {
  kind: 'api_key';
  id: string;
  name: string;
}

/** Who is calling: the organization, the credential, its role and the campaigns it is limited to. */
export interface AuthContext {
  organizationId: string;
  /** The API key's id (the actor recorded on changes). */
  apiKeyId: string;
  principal: Principal;
  role: Role;
  /** The only campaigns this credential reaches, or null for every campaign of the organization. */
  campaignIds: string[] | null;
}

/** Whether the credential reaches that campaign. */
export function reachesCampaign(auth: AuthContext, campaignId: string): boolean {
  return auth.campaignIds === null || auth.campaignIds.includes(campaignId);
}
