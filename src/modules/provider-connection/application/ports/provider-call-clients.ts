import { ProviderCallClient } from '../../domain/provider-call.js';
import { ResolvedConnection } from '../../domain/provider-connection.js';

/**
 * The provider clients, exported for the calling engine: the client of a resolved connection's
 * provider, or null for the types the engine serves itself (`simulated`, `http`).
 */
export abstract class ProviderCallClients {
  abstract forConnection(connection: ResolvedConnection): ProviderCallClient | null;

  /**
   * How the engine's adapter for `http` connections (a team's own voice agent) reaches the agent:
   * under the same destination policy as the providers' clients (PROVIDER_ALLOW_PRIVATE).
   */
  abstract agentFetch(): typeof fetch;
}
