import type { ProviderTextClient } from '../../domain/provider-text.js';
import type { ResolvedConnection } from '../../domain/provider-connection.js';

/**
 * The texting clients, exported for the messaging module: the client of a resolved connection's
 * provider, or null when the provider sends no texts through us (Vapi, Retell, `http`; the simulator
 * is the messaging module's own).
 */
export abstract class ProviderTextClients {
  abstract forConnection(connection: ResolvedConnection): ProviderTextClient | null;
}
