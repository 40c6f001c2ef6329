import { ProviderTextClients } from '../../provider-connection/application/ports/provider-text-clients.js';
import type { ResolvedConnection } from '../../provider-connection/domain/provider-connection.js';
import type { ProviderTextClient } from '../../provider-connection/domain/provider-text.js';
import {
  OutgoingText,
  SentText,
  TextSender,
  TextSenders,
} from '../application/ports/text-senders.js';
import { SimulatedTextSender } from './simulated-text-sender.js';

/** A provider connection's texting client as a sender. */
class ProviderTextSender extends TextSender {
  constructor(
    readonly provider: string,
    private readonly client: ProviderTextClient,
  ) {
    super();
  }

  send(text: OutgoingText): Promise<SentText> {
    return this.client.send(text);
  }
}

/**
 * The sender of each connection: the simulator for `simulated` connections and organizations without
 * one; the provider's texting client (Twilio); none for providers that send no texts through us (Vapi,
 * Retell, a team's own agent).
 */
export class ConnectionTextSenders extends TextSenders {
  private readonly simulator = new SimulatedTextSender();

  constructor(private readonly clients: ProviderTextClients) {
    super();
  }

  forConnection(connection: ResolvedConnection | null): TextSender | null {
    if (connection === null || connection.type === 'simulated') return this.simulator;
    const client = this.clients.forConnection(connection);
    return client ? new ProviderTextSender(connection.type, client) : null;
  }
}
