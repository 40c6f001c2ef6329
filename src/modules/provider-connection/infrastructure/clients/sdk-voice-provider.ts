import { Injectable } from '@nestjs/common';
import {
  CallProvider,
  ConnectionUnusableError,
} from '../../../telephony/application/ports/call-provider.js';
import { ProviderCallClients } from '../../application/ports/provider-call-clients.js';
import { BuiltInVoiceProvider } from '../../application/ports/voice-provider.js';
import type { ResolvedConnection } from '../../domain/provider-connection.js';

/**
 * A built-in type reached through its provider's official SDK (Twilio, Vapi, Retell): a
 * `VoiceProvider` like a team's, whose calls go through the `ProviderCallClients` binding, so an
 * installation without the SDK (an optional peer dependency) or a test swaps every SDK's client in
 * one place.
 */
@Injectable()
export abstract class SdkVoiceProvider extends BuiltInVoiceProvider {
  constructor(private readonly clients: ProviderCallClients) {
    super();
  }

  connect(connection: ResolvedConnection): CallProvider {
    const provider = this.clients.forConnection(connection);
    if (!provider) {
      throw new ConnectionUnusableError(connection.id, `no call client for ${connection.type}`);
    }
    return provider;
  }
}
