import { NotFoundError } from '../errors/domain-errors.js';
import type { Role } from './access.js';

/**
 * Who is acting: an API key (a system) or a person signed in with a session. Both carry a role and a
 * campaign scope, so the permission check and the scope checks do not ask which.
 */
export type Principal =
  | { kind: 'api_key'; id: string; name: string }
  | { kind: 'user'; id: string; name: string; email: string };

/** Who is calling: the organization, the credential, its role and the campaigns it is limited to. */
export interface AuthContext {
  organizationId: string;
  /** The API key's id when a key is acting (the actor recorded on changes); null for a person. */
  apiKeyId: string | null;
  principal: Principal;
  role: Role;
  /** The only campaigns this credential reaches, or null for every campaign of the organization. */
  campaignIds: string[] | null;
  /** A signed-in person's session (absent for keys): what GET /me and sign-out need. */
  session?: {
    id: string;
    csrfToken: string;
    endsAt: Date;
    maxEndsAt: Date;
    /** The person signs in with a TOTP code. */
    totpEnabled: boolean;
    /** Their organization requires one: until it is set up, the session may only set it up. */
    totpRequired: boolean;
  };
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
