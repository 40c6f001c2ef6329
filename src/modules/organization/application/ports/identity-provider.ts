/** What a single sign-on started with, kept by the browser until the provider sends it back. */
export interface PendingSignOn {
  state: string;
  nonce: string;
  codeVerifier: string;
}

/** Who the identity provider says signed in. */
export interface ProviderIdentity {
  subject: string;
  email: string | null;
  name: string | null;
  /** The values of the configured role claim (groups, roles). */
  groups: string[];
}

/** An OpenID Connect provider: where to send the browser, and what its answer proves. */
export abstract class IdentityProvider {
  /** Whether single sign-on is configured at all. */
  abstract readonly enabled: boolean;
  abstract authorizationUrl(redirectUri: string): Promise<{ url: string; pending: PendingSignOn }>;
  /** Redeems the code of the callback (its full URL) for the identity; throws when it fails. */
  abstract complete(callbackUrl: string, pending: PendingSignOn): Promise<ProviderIdentity>;
}
