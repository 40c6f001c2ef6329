import { Logger } from '@nestjs/common';
import type { CallFinishedEvent } from '../../../webhook/application/ports/outbox.js';
import type { MessageEvent } from '../../../webhook/application/ports/outbox.js';
import { OutboxListeners } from '../../../webhook/application/ports/outbox-listeners.js';
import type { TargetTimelineEvent } from './target-event-log.js';

/**
 * A team's own in-process hook on the service's events (an audit trail, an EHR write-back),
 * registered with `CampaignCallingModule.forRoot({ listeners: [...] })`. It is told of an event after
 * the transaction that recorded it has committed, never of one rolled back. Delivery is in-process and
 * at most once: what a listener throws is logged and dropped, and events not yet handled when the
 * process stops are lost (the signed webhooks are the durable, at-least-once route: docs/webhooks.md).
 * Each listener is told of events one at a time, in the order they committed in this process; a slow
 * listener delays only itself, never the service's work.
 */
export abstract class CampaignEventListener {
  /**
   * A call attempt ended (or a target ended without a call: `callLogId` null), with the target's
   * status after it: the same event as the `target.call_finished` webhook.
   */
  onCallFinished?(event: CallFinishedEvent): Promise<void> | void;
  /** A text's status changed or a reply came in: the `message.status` / `message.received` webhooks. */
  onMessageEvent?(event: MessageEvent): Promise<void> | void;
  /**
   * A target changed, as its timeline records it: added, launched, its input data edited or moved by
   * step data or an EHR event, a call started or ended, deferred, its status changed, deleted (every
   * kind but `notification`, which is the webhooks' own). Events of one transaction come in the order
   * recorded, transactions in the order they committed.
   */
  onTargetEvent?(event: TargetTimelineEvent): Promise<void> | void;
}

type Delivery = (listener: CampaignEventListener) => Promise<void> | void;

/** The registered listeners, each with its own queue of events to hand it, in order. */
export class CampaignEventListeners extends OutboxListeners {
  private readonly logger = new Logger('CampaignEventListener');
  private readonly queues: Promise<void>[];

  constructor(readonly listeners: readonly CampaignEventListener[] = []) {
    super();
    this.queues = listeners.map(() => Promise.resolve());
  }

  get any(): boolean {
    return this.listeners.length > 0;
  }

  callFinished(events: readonly CallFinishedEvent[]): void {
    for (const event of events) this.deliver('onCallFinished', (l) => l.onCallFinished?.(event));
  }

  messageEvents(events: readonly MessageEvent[]): void {
    for (const event of events) this.deliver('onMessageEvent', (l) => l.onMessageEvent?.(event));
  }

  targetEvents(events: readonly TargetTimelineEvent[]): void {
    for (const event of events) this.deliver('onTargetEvent', (l) => l.onTargetEvent?.(event));
  }

  /** Resolves once every event handed over so far has been delivered (or failed). */
  async idle(): Promise<void> {
    await Promise.all(this.queues);
  }

  private deliver(method: string, delivery: Delivery): void {
    this.listeners.forEach((listener, i) => {
      this.queues[i] = this.queues[i]
        .then(() => delivery(listener))
        .catch((err: unknown) =>
          this.logger.error(
            { err, listener: listener.constructor.name, method },
            'an event listener failed; the event is dropped for it',
          ),
        );
    });
  }
}
