import { Injectable } from '@nestjs/common';
import { ProviderCallClients } from '../../application/ports/provider-call-clients';
import { ProviderCallClient } from '../../domain/provider-call';
import { ResolvedConnection } from '../../domain/provider-connection';
import { RetellCallClient } from './retell-call-client';
import { TwilioCallClient } from './twilio-call-client';
import { VapiCallClient } from './vapi-call-client';

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
