import { ProviderCallClients } from '../modules/provider-connection/application/ports/provider-call-clients.js';
import { ProviderDestinations } from '../modules/provider-connection/application/ports/provider-destinations.js';
import { SealedSecret, SecretBox, SecretUnreadableError } from '../common/secrets/secret-box.js';
import type { CallProvider } from '../modules/telephony/application/ports/call-provider.js';
import { ProviderTextClients } from '../modules/provider-connection/application/ports/provider-text-clients.js';
import type { ProviderTextClient } from '../modules/provider-connection/domain/provider-text.js';

/**
 * Seals by encoding, not encrypting (tests only), with the real box's rule that matters to callers:
 * a secret opens only in the context it was sealed for.
 */
export class PlainSecretBox extends SecretBox {
  seal(plaintext: string, context: string): SealedSecret {
    return {
      keyId: 'plain',
      ciphertext: Buffer.from(JSON.stringify([context, plaintext])).toString('base64'),
    };
  }

  open(sealed: SealedSecret, context: string): string {
    const [sealedFor, plaintext] = JSON.parse(Buffer.from(sealed.ciphertext, 'base64').toString());
    if (sealed.keyId !== 'plain' || sealedFor !== context) {
      throw new SecretUnreadableError('sealed for another owner or with another key');
    }
    return plaintext;
  }
}

/** Refuses the hosts it is given (as a private address is refused), allows every other URL. */
export class ListedProviderDestinations extends ProviderDestinations {
  constructor(private readonly refusedHosts: string[] = []) {
    super();
  }

  async refusal(url: string): Promise<string | null> {
    const host = new URL(url).hostname;
    return this.refusedHosts.includes(host) ? `${host} is refused` : null;
  }
}

/** The clients a test scripts, by connection type; no network. */
export class ScriptedProviderCallClients extends ProviderCallClients {
  constructor(
    private readonly clients: Partial<Record<string, CallProvider>> = {},
    private readonly fetchForAgents: typeof fetch = globalThis.fetch,
  ) {
    super();
  }

  forConnection(connection: { type: string }): CallProvider | null {
    return this.clients[connection.type] ?? null;
  }

  agentFetch(): typeof fetch {
    return this.fetchForAgents;
  }
}

/** Texting clients a test scripts, by connection type; none by default (the simulator still texts). */
export class ScriptedProviderTextClients extends ProviderTextClients {
  constructor(private readonly clients: Partial<Record<string, ProviderTextClient>> = {}) {
    super();
  }

  forConnection(connection: { type: string }): ProviderTextClient | null {
    return this.clients[connection.type] ?? null;
  }
}
