import { Tx } from '../../../../common/persistence/unit-of-work.js';
import type { Campaign } from '../../../campaign/domain/campaign.js';
import type { Target } from '../../../target/domain/target.js';
import type { FollowUpContinuation } from '../../domain/message.js';

/** A follow-up text of an ended call, queued in the call's completion transaction. */
export interface FollowUpText {
  campaign: Campaign;
  /** The target as the completion left it (`SMS Scheduled`). */
  target: Target;
  callLogId: number;
  /** The number the call dialled. */
  to: string;
  continuation: FollowUpContinuation;
  now: Date;
}

/** Where the calling engine queues the campaign's follow-up texts (the messaging module sends them). */
export abstract class FollowUpTexts {
  /** Queues the texts and their send jobs in `tx`. */
  abstract queueFollowUps(tx: Tx, texts: FollowUpText[]): Promise<void>;
}
