import { Injectable } from '@nestjs/common';
import { ProviderCallClients } from '../../application/ports/provider-call-clients.js';
import { ProviderCallClient } from '../../domain/provider-call.js';
import { ResolvedConnection } from '../../domain/provider-connection.js';
import { RetellCallClient } from './retell-call-client.js';
import { TwilioCallClient } from './twilio-call-client.js';
import { VapiCallClient } from './vapi-call-client.js';

/**
 * The thin client of a resolved connection's provider; null for the types the engine serves itself
 * (`simulated`, and `http`, its generic voice-agent adapter).
 */
export function providerCallClient(connection: ResolvedConnection): ProviderCallClient | null {
  switch (connection.type) {
    case 'twilio':
      return new TwilioCallClient(connection);
    case 'vapi':
      return new VapiCallClient(connection);
    case 'retell':
      return new RetellCallClient(connection);
    case 'simulated':
    case 'http':
      return null;
  }
}

/** The official SDKs' clients. */
@Injectable()
export class SdkProviderCallClients extends ProviderCallClients {
  forConnection(connection: ResolvedConnection): ProviderCallClient | null {
    return providerCallClient(connection);
  }
}
