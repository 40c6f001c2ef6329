import type { CallProvider } from '../../../telephony/application/ports/call-provider.js';
import { ConnectionType, ResolvedConnection } from '../../domain/provider-connection.js';

/**
 * The providers' clients, for the calling engine: the `CallProvider` of a resolved connection's
 * provider (named by the connection id), or null for the types the engine serves itself
 * (`simulated`, `http`).
 */
export abstract class ProviderCallClients {
  abstract forConnection(connection: ResolvedConnection): CallProvider | null;

  /**
   * How the engine's adapter for `http` connections (a team's own voice agent) reaches the agent:
   * under the same destination policy as the providers' clients (PROVIDER_ALLOW_PRIVATE).
   */
  abstract agentFetch(): typeof fetch;

  /**
   * The npm package connections of `type` are reached through when it is not installed here (a
   * provider's SDK is an optional peer dependency), else null. Creating such a connection is refused
   * with a message naming it. Clients that need no package keep this default.
   */
  missingPackage(_type: ConnectionType): string | null {
    return null;
  }
}
