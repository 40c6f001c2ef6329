import { Injectable } from '@nestjs/common';
import * as client from 'openid-client';
import { AppConfig } from '../../../config/app-config.js';
import {
  IdentityProvider,
  PendingSignOn,
  ProviderIdentity,
} from '../application/ports/identity-provider.js';

/**
 * The OpenID Connect provider through `openid-client`: discovery once (then cached), the
 * authorization code flow with PKCE, state and nonce, and the claims of the ID token completed by
 * the userinfo endpoint. An `http://` issuer is accepted only on loopback (tests, a local IdP).
 */
@Injectable()
export class OidcIdentityProvider extends IdentityProvider {
  readonly enabled: boolean;
  private configuration?: Promise<client.Configuration>;

  constructor(private readonly config: AppConfig) {
    super();
    this.enabled = Boolean(config.get('OIDC_ISSUER_URL') && config.get('OIDC_CLIENT_ID'));
  }

  private discover(): Promise<client.Configuration> {
    this.configuration ??= (async () => {
      const issuer = new URL(this.config.get('OIDC_ISSUER_URL')!);
      const loopback = ['127.0.0.1', 'localhost', '[::1]'].includes(issuer.hostname);
      return client.discovery(
        issuer,
        this.config.get('OIDC_CLIENT_ID')!,
        this.config.get('OIDC_CLIENT_SECRET'),
        undefined,
        loopback && issuer.protocol === 'http:'
          ? { execute: [client.allowInsecureRequests] }
          : undefined,
      );
    })().catch((err: unknown) => {
      // A provider down at the first sign-in is tried again at the next.
      this.configuration = undefined;
      throw err;
    });
    return this.configuration;
  }

  async authorizationUrl(redirectUri: string): Promise<{ url: string; pending: PendingSignOn }> {
    const configuration = await this.discover();
    const pending = {
      state: client.randomState(),
      nonce: client.randomNonce(),
      codeVerifier: client.randomPKCECodeVerifier(),
    };
    const url = client.buildAuthorizationUrl(configuration, {
      redirect_uri: redirectUri,
      scope: this.config.get('OIDC_SCOPES'),
      state: pending.state,
      nonce: pending.nonce,
      code_challenge: await client.calculatePKCECodeChallenge(pending.codeVerifier),
      code_challenge_method: 'S256',
    });
    return { url: url.href, pending };
  }

  async complete(callbackUrl: string, pending: PendingSignOn): Promise<ProviderIdentity> {
    const configuration = await this.discover();
    const tokens = await client.authorizationCodeGrant(configuration, new URL(callbackUrl), {
      pkceCodeVerifier: pending.codeVerifier,
      expectedState: pending.state,
      expectedNonce: pending.nonce,
      idTokenExpected: true,
    });
    const idClaims = tokens.claims()!;
    const userInfo = await client.fetchUserInfo(configuration, tokens.access_token, idClaims.sub);
    const claims: Record<string, unknown> = { ...userInfo, ...idClaims };
    const roleClaim = claims[this.config.get('OIDC_ROLE_CLAIM')];
    return {
      subject: idClaims.sub,
      email: typeof claims.email === 'string' ? claims.email : null,
      name: typeof claims.name === 'string' ? claims.name : null,
      groups: (Array.isArray(roleClaim) ? roleClaim : [roleClaim]).filter(
        (g): g is string => typeof g === 'string',
      ),
    };
  }
}
