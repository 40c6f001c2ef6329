/**
 * A real OpenID Connect provider (`oidc-provider`) on loopback, with its development log-in pages
 * (any password; the login names an account), for the single sign-on tests.
 */
import { createServer, type Server } from 'http';
import type { AddressInfo } from 'net';
import Provider from 'oidc-provider';

export const OIDC_CLIENT_SECRET = 'a-client-secret-of-the-test-provider-0123456789';

/** An account the provider knows: its claims, groups included. */
export interface OidcAccount {
  email: string;
  name: string;
  groups: string[];
}

export async function startOidcProvider(
  accounts: Record<string, OidcAccount>,
  redirectUri: string,
): Promise<{ issuer: string; server: Server }> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const provider = new Provider(issuer, {
    clients: [
      {
        client_id: 'ccs',
        client_secret: OIDC_CLIENT_SECRET,
        redirect_uris: [redirectUri],
        grant_types: ['authorization_code'],
        response_types: ['code'],
      },
    ],
    claims: { email: ['email'], profile: ['name'], groups: ['groups'] },
    cookies: { keys: ['test-cookie-key'] },
    features: { devInteractions: { enabled: true } },
    findAccount: (_ctx, sub) => ({
      accountId: sub,
      claims: () => ({ sub, ...accounts[sub] }),
    }),
  });
  server.on('request', provider.callback());
  return { issuer, server };
}

/** The app's settings for single sign-on against that provider. */
export function oidcEnv(issuer: string, organization: string): Record<string, string> {
  return {
    OIDC_ISSUER_URL: issuer,
    OIDC_CLIENT_ID: 'ccs',
    OIDC_CLIENT_SECRET,
    OIDC_SCOPES: 'openid email profile groups',
    OIDC_ROLE_CLAIM: 'groups',
    OIDC_ROLE_MAP: 'ccs-admins=admin, nurses=operator, staff=viewer',
    OIDC_ORGANIZATION: organization,
  };
}
