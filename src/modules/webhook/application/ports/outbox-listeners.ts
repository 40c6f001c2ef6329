import type { CallFinishedEvent } from './outbox.js';
import type { MessageEvent } from './outbox.js';

/**
 * Who the outbox tells, in-process, of the call and message events it recorded, once their
 * transaction has committed: the team's listeners (`CampaignEventListeners` in the target module,
 * which also carries the target events the webhook module knows nothing of). Bound at the root to
 * the listener registry, so the webhook module imports no module that imports it.
 */
export abstract class OutboxListeners {
  /** False when nobody listens: the outbox then registers no after-commit work. */
  abstract get any(): boolean;
  abstract callFinished(events: readonly CallFinishedEvent[]): void;
  abstract messageEvents(events: readonly MessageEvent[]): void;
}
