import { Injectable } from '@nestjs/common';
import type { DestinationPolicy } from '../../../../common/net/outbound-destination.js';
import { pinnedFetch } from '../../../../common/net/pinned-fetch.js';
import { ProviderCallClients } from '../../application/ports/provider-call-clients.js';
import { CallProvider } from '../../../telephony/application/ports/call-provider.js';
import { ConnectionType, ResolvedConnection } from '../../domain/provider-connection.js';
import { ProviderSdks, providerSdks } from './provider-sdks.js';
import { RetellCallClient } from './retell-call-client.js';
import { TwilioCallClient } from './twilio-call-client.js';
import { VapiCallClient } from './vapi-call-client.js';

/**
 * The `CallProvider` of a resolved connection's provider, named by the connection id; null for the
 * types the engine serves itself
 * (`simulated`, and `http`, its generic voice-agent adapter). Every request it makes goes only where
 * `destinations` allows (checked again at each connect: the stored credentials travel with it).
 */
export function providerCallClient(
  connection: ResolvedConnection,
  destinations: DestinationPolicy,
  sdks: ProviderSdks = providerSdks,
): CallProvider | null {
  switch (connection.type) {
    case 'twilio':
      return new TwilioCallClient(connection, destinations, sdks);
    case 'vapi':
      return new VapiCallClient(connection, pinnedFetch(destinations), sdks);
    case 'retell':
      return new RetellCallClient(connection, pinnedFetch(destinations), sdks);
    default:
      // simulated and http; a registered carrier's type is placed through its own VoiceProvider.
      return null;
  }
}

/** The official SDKs' clients (each SDK an optional peer dependency, loaded on first use). */
@Injectable()
export class SdkProviderCallClients extends ProviderCallClients {
  constructor(
    private readonly destinations: DestinationPolicy,
    private readonly sdks: ProviderSdks = providerSdks,
  ) {
    super();
  }

  forConnection(connection: ResolvedConnection): CallProvider | null {
    return providerCallClient(connection, this.destinations, this.sdks);
  }

  override missingPackage(type: ConnectionType): string | null {
    return this.sdks.missingPackage(type);
  }

  agentFetch(): typeof fetch {
    return pinnedFetch(this.destinations);
  }
}
