import { Module, OnApplicationBootstrap } from '@nestjs/common';
import { APP_GUARD } from '@nestjs/core';
import { TypeOrmModule } from '@nestjs/typeorm';
import { AppConfig } from '../../config/app-config';
import { ApiKeyController } from './api/api-key.controller';
import { ApiKeyGuard } from './api/api-key.guard';
import { OrganizationService, parseBootstrapKeys } from './application/organization.service';
import { OrganizationRepository } from './application/ports/organization.repository';
import { ApiKeyOrmEntity, OrganizationOrmEntity } from './infrastructure/organization.orm-entity';
import { TypeOrmOrganizationRepository } from './infrastructure/organization.typeorm-repository';

/** Organizations (tenants) and their API keys; the global guard that authenticates every request. */
@Module({
  imports: [TypeOrmModule.forFeature([OrganizationOrmEntity, ApiKeyOrmEntity])],
  controllers: [ApiKeyController],
  providers: [
    OrganizationService,
    { provide: OrganizationRepository, useClass: TypeOrmOrganizationRepository },
    { provide: APP_GUARD, useClass: ApiKeyGuard },
  ],
  exports: [OrganizationService],
})
export class OrganizationModule implements OnApplicationBootstrap {
  constructor(
    private readonly organizations: OrganizationService,
    private readonly config: AppConfig,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    for (const [name, key] of parseBootstrapKeys(this.config.get('BOOTSTRAP_API_KEYS'))) {
      await this.organizations.ensureOrganizationWithKey(name, key);
    }
  }
}
