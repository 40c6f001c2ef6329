import { VoiceProviders } from '../../provider-connection/application/ports/voice-provider.js';
import { ProviderCallClients } from '../../provider-connection/application/ports/provider-call-clients.js';
import { SecretUnreadableError } from '../../../common/secrets/secret-box.js';
import { ProviderConnectionService } from '../../provider-connection/application/provider-connection.service.js';
import type { ResolvedConnection } from '../../provider-connection/domain/provider-connection.js';
import type { Campaign } from '../../campaign/domain/campaign.js';
import {
  isStandardWebhooksSecret,
  STANDARD_WEBHOOKS_SECRET_RULE,
} from '../../../common/signing/standard-webhooks-secret.js';
import {
  CallProvider,
  CallProviders,
  ConnectionUnusableError,
} from '../../telephony/application/ports/call-provider.js';
import { HttpCallProvider } from './http-call-provider.js';
import { SimulatedCallProvider } from './simulated-call-provider.js';

/**
 * The process-wide provider (CALL_PROVIDER, named `simulated` or `http`), the simulator (always there:
 * an organization may choose it), and each organization's provider connections, named by their id.
 * Connections are read at each use, so a changed credential applies to the next call and event.
 */
export class ConnectionCallProviders extends CallProviders {
  constructor(
    private readonly processWide: CallProvider,
    private readonly simulator: SimulatedCallProvider,
    private readonly connections: ProviderConnectionService,
    private readonly clients: ProviderCallClients,
    private readonly carriers: VoiceProviders = new VoiceProviders(),
  ) {
    super();
  }

  async forCampaign(
    campaign: Pick<Campaign, 'organizationId' | 'providerConnectionId'>,
  ): Promise<CallProvider> {
    const connection = await unusableIfUnreadable(
      campaign.providerConnectionId ?? "(the organization's default)",
      this.connections.resolve(campaign.organizationId, campaign.providerConnectionId),
    );
    return connection ? this.adapterOf(connection) : this.processWide;
  }

  async get(connection: string): Promise<CallProvider | null> {
    if (connection === this.processWide.name) return this.processWide;
    if (connection === this.simulator.name) return this.simulator;
    const resolved = await unusableIfUnreadable(
      connection,
      this.connections.resolveForEvents(connection),
    );
    return resolved ? this.adapterOf(resolved) : null;
  }

  private adapterOf(connection: ResolvedConnection): CallProvider {
    switch (connection.type) {
      case 'simulated':
        return this.simulator;
      case 'http':
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
      case 'twilio':
      case 'vapi':
      case 'retell': {
        const provider = this.clients.forConnection(connection);
        if (!provider) {
          throw new ConnectionUnusableError(connection.id, `no call client for ${connection.type}`);
        }
        return provider;
      }
      default: {
        const carrier = this.carriers.find(connection.type);
        if (carrier) return carrier.connect(connection);
        throw new ConnectionUnusableError(
          connection.id,
          `its type ${String((connection as { type: unknown }).type)} is not known to this version`,
        );
      }
    }
  }
}

/** Stored credentials that cannot be opened make the connection unusable, not the call a crash. */
async function unusableIfUnreadable<T>(connectionId: string, resolving: Promise<T>): Promise<T> {
  try {
    return await resolving;
  } catch (err) {
    if (err instanceof SecretUnreadableError) {
      throw new ConnectionUnusableError(connectionId, `${err.message} (see SECRETS_KEY)`);
    }
    throw err;
  }
}
