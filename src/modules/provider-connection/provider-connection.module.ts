import { Module, Provider } from '@nestjs/common';
import type { DestinationPolicy } from '../../common/net/outbound-destination.js';
import { AppConfig } from '../../config/app-config.js';
import { ProviderConnectionController } from './api/provider-connection.controller.js';
import { ProviderConnectionRepository } from './application/ports/provider-connection.repository.js';
import { ProviderCallClients } from './application/ports/provider-call-clients.js';
import { ProviderTextClients } from './application/ports/provider-text-clients.js';
import { SdkProviderTextClients } from './infrastructure/clients/sdk-provider-text-clients.js';
import { ProviderDestinations } from './application/ports/provider-destinations.js';
import { ProviderConnectionService } from './application/provider-connection.service.js';
import { SdkProviderCallClients } from './infrastructure/clients/sdk-provider-call-clients.js';
import { SqlProviderConnectionRepository } from './infrastructure/provider-connection-repository.sql.js';
import { ResolvingProviderDestinations } from './infrastructure/resolving-provider-destinations.js';

/** Where a connection's requests (and so its stored credentials) may go: PROVIDER_ALLOW_PRIVATE. */
export function providerDestinationPolicy(config: AppConfig): DestinationPolicy {
  return {
    allowPrivate: config.get('PROVIDER_ALLOW_PRIVATE'),
    setting: 'PROVIDER_ALLOW_PRIVATE',
  };
}

export const PROVIDER_CONNECTION_ADAPTERS: Provider[] = [
  {
    provide: ProviderCallClients,
    inject: [AppConfig],
    useFactory: (config: AppConfig) =>
      new SdkProviderCallClients(providerDestinationPolicy(config)),
  },
  {
    provide: ProviderTextClients,
    inject: [AppConfig],
    useFactory: (config: AppConfig) =>
      new SdkProviderTextClients(providerDestinationPolicy(config)),
  },
  { provide: ProviderConnectionRepository, useClass: SqlProviderConnectionRepository },
  {
    provide: ProviderDestinations,
    inject: [AppConfig],
    useFactory: (config: AppConfig) =>
      new ResolvingProviderDestinations(providerDestinationPolicy(config)),
  },
];

/**
 * Per-organization connections to voice providers (Twilio, Vapi, Retell, a team's own agent, the
 * simulator), with their credentials encrypted at rest. The calling engine resolves them through
 * the exported service and reaches the providers through the exported `ProviderCallClients`.
 */
@Module({
  controllers: [ProviderConnectionController],
  providers: [ProviderConnectionService],
  exports: [ProviderConnectionService],
})
export class ProviderConnectionModule {}
