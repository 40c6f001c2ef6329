import { Tx } from '../../../../common/persistence/unit-of-work.js';
import type { CampaignStep } from '../../../campaign/domain/campaign.js';

/** Every step write is confined to one campaign of one organization. */
export interface StepScope {
  organizationId: string;
  campaignId: string;
}

/** Names a target by id, by external id, or by both (then both must match). */
export interface TargetRef {
  /** A canonical UUID (see `canonicalUuid`); a malformed id names no target and never gets here. */
  targetId?: string | null;
  externalId?: string | null;
}

export interface StepDataUpdate extends TargetRef {
  /** Position in the request: reported back, and the order in which one target's payloads merge. */
  index: number;
  data: Record<string, unknown>;
}

/** What every history row of one request shares: which step, who sent it, when. */
export interface ReceivedStep {
  kind: CampaignStep['type'];
  friendlyId: string;
  eventType: string | null;
  apiKeyId: string | null;
  receivedAt: Date;
}

/** One received payload, as kept in the target's history. */
export interface StepEventRecord extends StepScope, ReceivedStep {
  id: string;
  targetId: string;
  data: Record<string, unknown>;
}

export interface AppliedUpdate {
  index: number;
  targetId: string;
  /**
   * The target waits at the received step (`Waiting`, its current step the received friendly id), as
   * the merge found it and keeps it locked: only such a target has a status move to make.
   */
  waiting: boolean;
}

/**
 * Data received at a campaign step, written into the targets it names: the step module's way to change
 * `input_data` and `pre_call_ehr_ids`, and the target's history of received payloads
 * (`target_step_events`). The target module owns both tables; each method is one set-based statement.
 */
export abstract class TargetStepData {
  /**
   * Merges each update's data into the `input_data` of the target it names (one level deep; several
   * updates of one target merge in index order) and records one history row per applied update, as
   * one set-based write. Returns the applied updates, in index order; the others named no target of the
   * scope.
   */
  abstract mergeStepData(
    tx: Tx,
    scope: StepScope,
    received: ReceivedStep,
    updates: StepDataUpdate[],
  ): Promise<AppliedUpdate[]>;

  /**
   * Stores an EHR event of one target (history row), merges its data into `input_data` and appends the
   * event id to `pre_call_ehr_ids` under its type. Null when the reference names no target of the scope.
   */
  abstract recordEhrEvent(
    tx: Tx,
    scope: StepScope,
    received: ReceivedStep,
    ref: TargetRef,
    data: Record<string, unknown>,
  ): Promise<{ eventId: string; targetId: string } | null>;

  /** The received payloads of a target, oldest first. */
  abstract history(organizationId: string, targetId: string): Promise<StepEventRecord[]>;
}
