import type { ProviderCallClient } from '../../provider-connection/domain/provider-call.js';
import {
  CallEvent,
  CallProvider,
  ProviderRequest,
  StartCallRequest,
} from '../application/ports/call-provider.js';

/**
 * A provider connection's thin client (Twilio, Vapi, Retell) as the engine's `CallProvider`, named by
 * the connection id: the client speaks the same neutral shapes, so this only forwards.
 */
export class ClientCallProvider extends CallProvider {
  constructor(
    readonly name: string,
    private readonly client: ProviderCallClient,
  ) {
    super();
  }

  startCall(request: StartCallRequest): Promise<{ providerCallId: string }> {
    return this.client.startCall({
      to: request.to,
      from: request.from,
      inputData: request.inputData,
      callLogId: request.callLogId,
      targetId: request.targetId,
      campaignId: request.campaignId,
      attempt: request.attempt,
      eventsUrl: request.eventsUrl,
    });
  }

  getCall(ref: { providerCallId: string | null; callLogId: number }): Promise<CallEvent | null> {
    return this.client.getCall(ref);
  }

  readEvents(request: ProviderRequest): Promise<CallEvent[]> {
    return this.client.readEvents(request);
  }
}
