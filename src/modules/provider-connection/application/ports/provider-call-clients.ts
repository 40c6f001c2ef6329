import type { CallProvider } from '../../../telephony/application/ports/call-provider.js';
import { ConnectionType, ResolvedConnection } from '../../domain/provider-connection.js';

/**
 * How the built-in providers reach the outside: the `CallProvider` of a connection of a type reached
 * through an official SDK (named by the connection id; null for any other type), which that type's
 * `VoiceProvider` connects with, and the fetch of the `http` agent's. One binding, so an installation
 * without an SDK, or a test, swaps them all.
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
