import { randomUUID } from 'crypto';
import { OutgoingText, SentText, TextSender } from '../application/ports/text-senders.js';
import { simulatedReply, simulatedTextOutcome } from '../domain/message.js';

/** The simulator's number when neither the connection nor the campaign has one. */
export const SIMULATED_SENDER = '+15550000000';

/**
 * Texts that go nowhere: the digits of the number decide the final status at once (see
 * `SIMULATED_TEXT_OUTCOMES`), as the simulator's calls do.
 */
export class SimulatedTextSender extends TextSender {
  readonly provider = 'simulated';

  send(text: OutgoingText): Promise<SentText> {
    const { status, errorCode } = simulatedTextOutcome(text.to);
    return Promise.resolve({
      providerMessageId: `SM${randomUUID().replace(/-/g, '')}`,
      from: text.from ?? SIMULATED_SENDER,
      status,
      errorCode,
      errorMessage: errorCode === null ? null : `simulated ${status} (${errorCode})`,
      reply: status === 'delivered' ? simulatedReply(text.to) : null,
    });
  }
}
