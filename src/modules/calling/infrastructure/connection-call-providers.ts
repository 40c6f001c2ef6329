import { VoiceProviders } from '../../provider-connection/application/ports/voice-provider.js';
import { SecretUnreadableError } from '../../../common/secrets/secret-box.js';
import { ProviderConnectionService } from '../../provider-connection/application/provider-connection.service.js';
import type { ResolvedConnection } from '../../provider-connection/domain/provider-connection.js';
import type { Campaign } from '../../campaign/domain/campaign.js';
import {
  CallProvider,
  CallProviders,
  ConnectionUnusableError,
} from '../../telephony/application/ports/call-provider.js';
import { SimulatedCallProvider } from './simulated-call-provider.js';

/**
 * The process-wide provider (CALL_PROVIDER, named `simulated` or `http`), the simulator (always there:
 * an organization may choose it), and each organization's provider connections, named by their id,
 * each placed through the `VoiceProvider` registered for its type.
 * Connections are read at each use, so a changed credential applies to the next call and event.
 */
export class ConnectionCallProviders extends CallProviders {
  constructor(
    private readonly processWide: CallProvider,
    private readonly simulator: SimulatedCallProvider,
    private readonly connections: ProviderConnectionService,
    /** Every connection type's provider: the built-in ones and a team's (`forRoot({ voiceProviders })`). */
    private readonly providers: VoiceProviders,
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

  /** The provider registered for the connection's type connects it: built-in and team's alike. */
  private adapterOf(connection: ResolvedConnection): CallProvider {
    const provider = this.providers.find(connection.type);
    if (!provider) {
      throw new ConnectionUnusableError(
        connection.id,
        `its type ${String(connection.type)} is not known to this version`,
      );
    }
    return provider.connect(connection);
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
