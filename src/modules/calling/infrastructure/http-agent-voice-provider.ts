import { Injectable } from '@nestjs/common';
import {
  isStandardWebhooksSecret,
  STANDARD_WEBHOOKS_SECRET_RULE,
} from '../../../common/signing/standard-webhooks-secret.js';
import { ProviderCallClients } from '../../provider-connection/application/ports/provider-call-clients.js';
import { BuiltInVoiceProvider } from '../../provider-connection/application/ports/voice-provider.js';
import type { ResolvedConnection } from '../../provider-connection/domain/provider-connection.js';
import {
  CallProvider,
  ConnectionUnusableError,
} from '../../telephony/application/ports/call-provider.js';
import { HttpCallProvider } from './http-call-provider.js';

/**
 * The `http` connection type: an organization's own voice agent speaking the agent protocol
 * (docs/voice-agent-protocol.md) at its `api_base_url`, reached under the providers' destination
 * policy (`ProviderCallClients.agentFetch`).
 */
@Injectable()
export class HttpAgentVoiceProvider extends BuiltInVoiceProvider {
  readonly type = 'http';

  constructor(private readonly clients: ProviderCallClients) {
    super();
  }

  connect(connection: ResolvedConnection): CallProvider {
    // Stored before the API checked it: standardwebhooks would throw at every use.
    if (!isStandardWebhooksSecret(connection.credentials.secret)) {
      throw new ConnectionUnusableError(
        connection.id,
        `its secret ${STANDARD_WEBHOOKS_SECRET_RULE}; PATCH its credentials`,
      );
    }
    return new HttpCallProvider({
      name: connection.id,
      agentUrl: String(connection.settings.api_base_url),
      secret: connection.credentials.secret,
      fetch: this.clients.agentFetch(),
    });
  }
}
