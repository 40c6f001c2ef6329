import type { DestinationPolicy } from '../../../../common/net/outbound-destination.js';
import { ProviderTextClients } from '../../application/ports/provider-text-clients.js';
import type { ResolvedConnection } from '../../domain/provider-connection.js';
import type { ProviderTextClient } from '../../domain/provider-text.js';
import { ProviderSdks, providerSdks, type SdkConnectionType } from './provider-sdks.js';
import { TwilioTextClient } from './twilio-text-client.js';

type SdkTextClient = (
  connection: ResolvedConnection,
  destinations: DestinationPolicy,
  sdks: ProviderSdks,
) => ProviderTextClient;

/** The SDK types that text, and their clients. */
const SDK_TEXT_CLIENTS: Partial<Record<SdkConnectionType, SdkTextClient>> = {
  twilio: (connection, destinations, sdks) => new TwilioTextClient(connection, destinations, sdks),
};

/** The official SDKs' texting clients, under the providers' destination policy. */
export class SdkProviderTextClients extends ProviderTextClients {
  constructor(
    private readonly destinations: DestinationPolicy,
    private readonly sdks: ProviderSdks = providerSdks,
  ) {
    super();
  }

  forConnection(connection: ResolvedConnection): ProviderTextClient | null {
    const client = Object.hasOwn(SDK_TEXT_CLIENTS, connection.type)
      ? SDK_TEXT_CLIENTS[connection.type as SdkConnectionType]
      : undefined;
    return client ? client(connection, this.destinations, this.sdks) : null;
  }
}
