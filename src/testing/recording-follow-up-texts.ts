import { Tx } from '../common/persistence/unit-of-work.js';
import {
  FollowUpText,
  FollowUpTexts,
} from '../modules/messaging/application/ports/follow-up-texts.js';

/** Keeps the follow-up texts the calling engine queued, in order. */
export class RecordingFollowUpTexts extends FollowUpTexts {
  readonly queued: FollowUpText[] = [];

  async queueFollowUps(_tx: Tx, texts: FollowUpText[]): Promise<void> {
    this.queued.push(...texts);
  }
}
