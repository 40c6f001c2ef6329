import type { ResolvedConnection } from '../../provider-connection/domain/provider-connection.js';
import { TextSender, TextSenders } from '../application/ports/text-senders.js';
import { SimulatedTextSender } from './simulated-text-sender.js';

/**
 * The sender of each connection type: the simulator for `simulated` connections and organizations
 * without one; none for providers that send no texts through us (Vapi, Retell, a team's own agent).
 */
export class ConnectionTextSenders extends TextSenders {
  constructor(private readonly simulator: TextSender = new SimulatedTextSender()) {
    super();
  }

  forConnection(connection: ResolvedConnection | null): TextSender | null {
    if (connection === null || connection.type === 'simulated') return this.simulator;
    return null;
  }
}
