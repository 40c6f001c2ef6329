import { type Abstract, Module, Provider } from '@nestjs/common';
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

/**
 * `port` bound to the adapter `adapterFor` makes under the providers' destination policy: where a
 * connection's requests (and so its stored credentials) may go, by PROVIDER_ALLOW_PRIVATE.
 */
const underProviderPolicy = <T>(
  port: Abstract<T>,
  adapterFor: (policy: DestinationPolicy) => T,
): Provider => ({
  provide: port,
  inject: [AppConfig],
  useFactory: (config: AppConfig) =>
    adapterFor({
      allowPrivate: config.get('PROVIDER_ALLOW_PRIVATE'),
      setting: 'PROVIDER_ALLOW_PRIVATE',
    }),
});

export const PROVIDER_CONNECTION_ADAPTERS: Provider[] = [
  underProviderPolicy(ProviderCallClients, (policy) => new SdkProviderCallClients(policy)),
  underProviderPolicy(ProviderTextClients, (policy) => new SdkProviderTextClients(policy)),
  { provide: ProviderConnectionRepository, useClass: SqlProviderConnectionRepository },
  underProviderPolicy(ProviderDestinations, (policy) => new ResolvingProviderDestinations(policy)),
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
