import { NotFoundError } from '../errors/domain-errors.js';
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

/** Whether the credential reaches that campaign; what belongs to none, only an unlimited one reaches. */
export function reachesCampaign(auth: AuthContext, campaignId: string | null): boolean {
  return (
    auth.campaignIds === null || (campaignId !== null && auth.campaignIds.includes(campaignId))
  );
}

/**
 * Beyond a campaign-limited credential's campaigns a resource does not exist, as in another
 * organization: the same not-found its lookup gives for an unknown id (`notFound`, its message).
 */
export function requireCampaignReach(
  auth: AuthContext,
  campaignId: string | null,
  notFound: string,
): void {
  if (!reachesCampaign(auth, campaignId)) throw new NotFoundError(notFound);
}
