import { Logger, Module, OnApplicationBootstrap, Provider } from '@nestjs/common';
import { APP_GUARD } from '@nestjs/core';
import { AuthFailureLimiter } from '../../common/http/auth-failure-limiter.js';
import {
  RATE_COUNTERS,
  RATE_COUNTERS_PROVIDER,
  type RateCounters,
} from '../../common/http/rate-counters.js';
import { AppConfig } from '../../config/app-config.js';
import { AuditModule } from '../audit/audit.module.js';
import { AuditTrailService } from '../audit/application/audit-trail.service.js';
import { TotpSecrets } from './application/totp-secrets.js';
import { ApiKeyController } from './api/api-key.controller.js';
import { ApiKeyGuard } from './api/api-key.guard.js';
import { SecondFactorController } from './api/second-factor.controller.js';
import { SessionController } from './api/session.controller.js';
import { SsoController } from './api/sso.controller.js';
import { IdentityProvider } from './application/ports/identity-provider.js';
import { parseRoleMap, SsoService, SsoSettings } from './application/sso.service.js';
import { OidcIdentityProvider } from './infrastructure/oidc-identity-provider.js';
import { SecondFactorService } from './application/second-factor.service.js';
import { UserController } from './api/user.controller.js';
import { PeopleService } from './application/people.service.js';
import { SessionService, SessionSettings } from './application/session.service.js';
import { SessionStore } from './application/ports/session.store.js';
import { UserRepository } from './application/ports/user.repository.js';
import { SqlSessionStore } from './infrastructure/session-store.sql.js';
import { SqlUserRepository } from './infrastructure/user-repository.sql.js';
import { Clock } from '../../common/clock/clock.js';
import { OrganizationService } from './application/organization.service.js';
import { ApiKeyRevocations } from './application/ports/api-key-revocations.js';
import { OrganizationRepository } from './application/ports/organization.repository.js';
import { SqlApiKeyRevocations } from './infrastructure/api-key-revocations.sql.js';
import { SqlOrganizationRepository } from './infrastructure/organization-repository.sql.js';

export const ORGANIZATION_ADAPTERS: Provider[] = [
  { provide: OrganizationRepository, useClass: SqlOrganizationRepository },
  { provide: ApiKeyRevocations, useClass: SqlApiKeyRevocations },
  { provide: UserRepository, useClass: SqlUserRepository },
  { provide: SessionStore, useClass: SqlSessionStore },
  { provide: IdentityProvider, useClass: OidcIdentityProvider },
];

/**
 * Organizations (tenants), their API keys, their people and sessions; the global guard that
 * authenticates every request.
 */
@Module({
  // The guard records refusals in the audit trail.
  imports: [AuditModule],
  controllers: [
    ApiKeyController,
    UserController,
    SessionController,
    SecondFactorController,
    SsoController,
  ],
  providers: [
    OrganizationService,
    SecondFactorService,
    TotpSecrets,
    {
      provide: SsoSettings,
      inject: [AppConfig],
      useFactory: (config: AppConfig) =>
        new SsoSettings({
          roleMap: parseRoleMap(config.get('OIDC_ROLE_MAP')),
          organizationName: config.get('OIDC_ORGANIZATION'),
        }),
    },
    SsoService,
    {
      provide: PeopleService,
      inject: [UserRepository, AppConfig, Clock, AuditTrailService],
      useFactory: (
        users: UserRepository,
        config: AppConfig,
        clock: Clock,
        audit: AuditTrailService,
      ) =>
        new PeopleService(users, { invitationTtlMs: config.get('INVITATION_TTL') }, clock, audit),
    },
    {
      provide: SessionSettings,
      inject: [AppConfig],
      useFactory: (config: AppConfig) =>
        new SessionSettings({
          idleTimeoutMs: config.get('SESSION_IDLE_TIMEOUT'),
          maxAgeMs: config.get('SESSION_MAX_AGE'),
          failuresPerAccount: config.get('SIGN_IN_FAILURES_PER_ACCOUNT'),
          failuresPerAddress: config.get('SIGN_IN_FAILURES_PER_ADDRESS'),
          lockoutMs: config.get('SIGN_IN_LOCKOUT'),
        }),
    },
    SessionService,
    // The in-memory counters of @nestjs/throttler, used by the guard for both rate limits.
    RATE_COUNTERS_PROVIDER,
    {
      provide: AuthFailureLimiter,
      inject: [RATE_COUNTERS, AppConfig],
      useFactory: (counters: RateCounters, config: AppConfig) =>
        new AuthFailureLimiter(counters, {
          limit: config.get('AUTH_FAILURE_LIMIT'),
          windowMs: config.get('RATE_LIMIT_WINDOW'),
        }),
    },
    { provide: APP_GUARD, useClass: ApiKeyGuard },
  ],
  // The failure limiter: the provider events route counts its failed signatures too.
  exports: [OrganizationService, PeopleService, AuthFailureLimiter],
})
export class OrganizationModule implements OnApplicationBootstrap {
  constructor(
    private readonly organizations: OrganizationService,
    private readonly config: AppConfig,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    await this.ensureBootstrapKeys();
    // The demo (embedded PGlite) makes its own organization; a new PostgreSQL database has none,
    // and no request can succeed until one exists.
    if (
      this.config.get('database').kind === 'postgres' &&
      this.config.get('ROLE') !== 'worker' &&
      (await this.organizations.listOrganizations()).length === 0
    ) {
      new Logger('Organizations').warn(
        'No organization yet, so no API key works: create one with ' +
          '`npm run cli -- org:create --name <name>`, then its key with ' +
          '`npm run cli -- apikey:create --org <organization id>` (or set BOOTSTRAP_API_KEYS)',
      );
    }
  }

  private async ensureBootstrapKeys(): Promise<void> {
    for (const [name, key] of this.config.get('BOOTSTRAP_API_KEYS')) {
      const { revokedKey } = await this.organizations.ensureOrganizationWithKey(name, key);
      if (revokedKey) {
        new Logger('Organizations').warn(
          { organization: name, apiKeyId: revokedKey.id, keyPrefix: revokedKey.keyPrefix },
          `BOOTSTRAP_API_KEYS names a revoked key for "${name}" (${revokedKey.keyPrefix}...): it does not authenticate; remove it or issue a new one`,
        );
      }
    }
  }
}
