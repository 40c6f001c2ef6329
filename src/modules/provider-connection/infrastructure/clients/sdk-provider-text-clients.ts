import type { DestinationPolicy } from '../../../../common/net/outbound-destination.js';
import { ProviderTextClients } from '../../application/ports/provider-text-clients.js';
import type { ResolvedConnection } from '../../domain/provider-connection.js';
import type { ProviderTextClient } from '../../domain/provider-text.js';
import { ProviderSdks, providerSdks } from './provider-sdks.js';
import { TwilioTextClient } from './twilio-text-client.js';

/** The official SDKs' texting clients, under the providers' destination policy. */
export class SdkProviderTextClients extends ProviderTextClients {
  constructor(
    private readonly destinations: DestinationPolicy,
    private readonly sdks: ProviderSdks = providerSdks,
  ) {
    super();
  }

  forConnection(connection: ResolvedConnection): ProviderTextClient | null {
    return connection.type === 'twilio'
      ? new TwilioTextClient(connection, this.destinations, this.sdks)
      : null;
  }
}
