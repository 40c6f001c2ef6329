import { ProviderCallClient } from '../../domain/provider-call.js';
import { ResolvedConnection } from '../../domain/provider-connection.js';

/**
 * The provider clients, exported for the calling engine: the client of a resolved connection's
 * provider, or null for the types the engine serves itself (`simulated`, `http`).
 */
export abstract class ProviderCallClients {
  abstract forConnection(connection: ResolvedConnection): ProviderCallClient | null;
}
