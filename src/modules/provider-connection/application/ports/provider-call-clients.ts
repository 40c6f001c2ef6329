import { ProviderCallClient } from '../../domain/provider-call';
import { ResolvedConnection } from '../../domain/provider-connection';

/**
 * The provider clients, exported for the calling engine: the client of a resolved connection's
 * provider, or null for the types the engine serves itself (`simulated`, `http`).
 */
export abstract class ProviderCallClients {
  abstract forConnection(connection: ResolvedConnection): ProviderCallClient | null;
}
