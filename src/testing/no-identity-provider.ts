import {
  IdentityProvider,
  PendingSignOn,
  ProviderIdentity,
} from '../modules/organization/application/ports/identity-provider.js';

/**
 * No single sign-on: what the service is without OIDC settings. A test that needs a provider runs a
 * real one on loopback (test/e2e/sso.e2e-spec.ts).
 */
export class NoIdentityProvider extends IdentityProvider {
  readonly enabled = false;

  authorizationUrl(): Promise<{ url: string; pending: PendingSignOn }> {
    return Promise.reject(new Error('Single sign-on is not configured'));
  }

  complete(): Promise<ProviderIdentity> {
    return Promise.reject(new Error('Single sign-on is not configured'));
  }
}
