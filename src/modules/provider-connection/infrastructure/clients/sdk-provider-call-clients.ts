import { Injectable } from '@nestjs/common';
import type { DestinationPolicy } from '../../../../common/net/outbound-destination.js';
import { pinnedFetch } from '../../../../common/net/pinned-fetch.js';
import { ProviderCallClients } from '../../application/ports/provider-call-clients.js';
import { CallProvider } from '../../../telephony/application/ports/call-provider.js';
import { ConnectionType, ResolvedConnection } from '../../domain/provider-connection.js';
import { ProviderSdks, providerSdks, type SdkConnectionType } from './provider-sdks.js';
import { RetellCallClient } from './retell-call-client.js';
import { TwilioCallClient } from './twilio-call-client.js';
import { VapiCallClient } from './vapi-call-client.js';

type SdkCallClient = (
  connection: ResolvedConnection,
  destinations: DestinationPolicy,
  sdks: ProviderSdks,
) => CallProvider;

/** Each SDK type's client (its `VoiceProvider` connects through this binding). */
const SDK_CALL_CLIENTS: Record<SdkConnectionType, SdkCallClient> = {
  twilio: (connection, destinations, sdks) => new TwilioCallClient(connection, destinations, sdks),
  vapi: (connection, destinations, sdks) =>
    new VapiCallClient(connection, pinnedFetch(destinations), sdks),
  retell: (connection, destinations, sdks) =>
    new RetellCallClient(connection, pinnedFetch(destinations), sdks),
};

/**
 * The `CallProvider` of a resolved connection of an SDK type, named by the connection id; null for
 * any other type (each places through its own `VoiceProvider`). Every request it makes goes only where
 * `destinations` allows (checked again at each connect: the stored credentials travel with it).
 */
export function providerCallClient(
  connection: ResolvedConnection,
  destinations: DestinationPolicy,
  sdks: ProviderSdks = providerSdks,
): CallProvider | null {
  if (!Object.hasOwn(SDK_CALL_CLIENTS, connection.type)) return null;
  return SDK_CALL_CLIENTS[connection.type as SdkConnectionType](connection, destinations, sdks);
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
