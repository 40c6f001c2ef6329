import { Tx } from '../../../../common/persistence/unit-of-work.js';
import { Campaign, CampaignState } from '../../domain/campaign.js';

export type NewCampaign = Omit<
  Campaign,
  'id' | 'createdAt' | 'updatedAt' | 'state' | 'stateChangedAt' | 'pausedReason'
>;
export type CampaignChanges = Partial<
  Omit<
    Campaign,
    | 'id'
    | 'organizationId'
    | 'webhookSecret'
    | 'createdAt'
    | 'updatedAt'
    | 'state'
    | 'stateChangedAt'
    | 'pausedReason'
  >
>;

export type CampaignUpdateResult =
  | { kind: 'updated'; campaign: Campaign }
  | { kind: 'not_found' }
  | { kind: 'entry_step_not_in_steps' }
  | { kind: 'waiting_step_removed' };

export abstract class CampaignRepository {
  /** `now`: its created_at (the service's clock, so that a test's clock moves it too). */
  abstract create(campaign: NewCampaign, now: Date): Promise<Campaign>;
  /** `tx`: read inside that transaction (embedded PGlite runs one session at a time). */
  abstract findById(id: string, tx?: Tx | null): Promise<Campaign | null>;
  /**
   * A page of the organization's campaigns in (created_at, id) order, and their total; only those in
   * `campaignIds` when it is given.
   */
  abstract list(
    organizationId: string,
    offset: number,
    limit: number,
    campaignIds?: string[] | null,
  ): Promise<{ items: Campaign[]; total: number }>;
  /**
   * Applies the changes in one conditional statement, so that concurrent updates cannot leave the
   * campaign inconsistent: the resulting `entry_step` must be one of the resulting steps, and a change
   * of `steps` must keep every step that targets are `Waiting` at. `now`: its updated_at.
   */
  abstract update(
    organizationId: string,
    id: string,
    changes: CampaignChanges,
    now: Date,
  ): Promise<CampaignUpdateResult>;
  /**
   * The organization's campaign to state `to` when it is in one of `from`, in one conditional
   * statement in `tx`; null when it is not (missing, another organization's, or in another state).
   * `pausedReason` is kept when `to` is `paused` and cleared otherwise.
   */
  abstract changeState(
    tx: Tx,
    organizationId: string,
    id: string,
    from: CampaignState[],
    to: CampaignState,
    now: Date,
    pausedReason?: string | null,
  ): Promise<Campaign | null>;
  /**
   * The campaign's state as committed, read in `tx` with a share lock on its row (held to the end of
   * `tx`), so a state change waits for `tx` and `tx` waits for one under way; null: no such campaign.
   */
  abstract lockedState(tx: Tx, id: string): Promise<CampaignState | null>;
  /** `lockedState` of many campaigns in one statement (locked in id order); absent: no such campaign. */
  abstract lockedStates(tx: Tx, ids: string[]): Promise<Map<string, CampaignState>>;
  /** The ids of every organization's paused campaigns. */
  abstract pausedIds(): Promise<string[]>;
  /** `now`: its updated_at. */
  abstract setWebhookSecret(
    organizationId: string,
    id: string,
    secret: string,
    now: Date,
  ): Promise<Campaign | null>;
}
