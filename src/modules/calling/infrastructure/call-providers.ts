import { ProviderCallClients } from '../../provider-connection/application/ports/provider-call-clients.js';
import { ProviderConnectionService } from '../../provider-connection/application/provider-connection.service.js';
import type { ResolvedConnection } from '../../provider-connection/domain/provider-connection.js';
import type { Campaign } from '../../campaign/domain/campaign.js';
import { CallProvider, CallProviders } from '../application/ports/call-provider.js';
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
  ) {
    super();
  }

  async forCampaign(
    campaign: Pick<Campaign, 'organizationId' | 'providerConnectionId'>,
  ): Promise<CallProvider> {
    const connection = await this.connections.resolve(
      campaign.organizationId,
      campaign.providerConnectionId,
    );
    return connection ? this.adapterOf(connection) : this.processWide;
  }

  async get(connection: string): Promise<CallProvider | null> {
    if (connection === this.processWide.name) return this.processWide;
    if (connection === this.simulator.name) return this.simulator;
    const resolved = await this.connections.resolveForEvents(connection);
    return resolved ? this.adapterOf(resolved) : null;
  }

  private adapterOf(connection: ResolvedConnection): CallProvider {
    switch (connection.type) {
      case 'simulated':
        return this.simulator;
      case 'http':
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
        if (!provider) throw new Error(`no call client for a ${connection.type} connection`);
        return provider;
      }
    }
  }
}
