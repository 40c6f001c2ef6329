import { randomUUID } from 'crypto';
import {
  CampaignChanges,
  CampaignRepository,
  CampaignUpdateResult,
  NewCampaign,
} from '../modules/campaign/application/ports/campaign.repository.js';
import { Campaign, CampaignState } from '../modules/campaign/domain/campaign.js';
import { Tx } from '../common/persistence/unit-of-work.js';
import { definedOnly } from '../common/objects/defined-only.js';
import { pageOf } from './in-memory-rows.js';

/** A deep enough copy that callers never share the stored campaign's objects. */
function copy<T extends Partial<Campaign>>(c: T): T {
  return {
    ...c,
    ...(c.steps && { steps: c.steps.map((s) => ({ ...s })) }),
    ...(c.callingWindow && { callingWindow: JSON.parse(JSON.stringify(c.callingWindow)) }),
    ...(c.blacklistIds && { blacklistIds: [...c.blacklistIds] }),
  };
}

export class InMemoryCampaignRepository extends CampaignRepository {
  readonly campaigns = new Map<string, Campaign>();

  async create(campaign: NewCampaign, now: Date): Promise<Campaign> {
    const created = copy({
      ...campaign,
      id: randomUUID(),
      state: 'active' as const,
      stateChangedAt: null,
      pausedReason: null,
      createdAt: now,
      updatedAt: now,
    });
    this.campaigns.set(created.id, created);
    return copy(created);
  }

  async findById(id: string) {
    const c = this.campaigns.get(id);
    return c ? copy(c) : null;
  }

  async list(
    organizationId: string,
    offset: number,
    limit: number,
    campaignIds: string[] | null = null,
  ) {
    const all = [...this.campaigns.values()]
      .filter(
        (c) => c.organizationId === organizationId && (!campaignIds || campaignIds.includes(c.id)),
      )
      // Stable: campaigns created in the same millisecond keep their creation order, as the
      // adapter's microsecond timestamps do.
      .sort((a, b) => a.createdAt.getTime() - b.createdAt.getTime());
    return pageOf(all, offset, limit, copy);
  }

  /** The same rules as the adapter, but for targets waiting at a removed step (it holds no targets). */
  async update(
    organizationId: string,
    id: string,
    changes: CampaignChanges,
    now: Date,
  ): Promise<CampaignUpdateResult> {
    const c = this.campaigns.get(id);
    if (!c || c.organizationId !== organizationId) return { kind: 'not_found' };
    const steps = changes.steps ?? c.steps;
    const entry = changes.entryStep !== undefined ? changes.entryStep : c.entryStep;
    if (entry !== null && !steps.some((s) => s.friendly_id === entry)) {
      return { kind: 'entry_step_not_in_steps' };
    }
    Object.assign(c, copy(definedOnly(changes)), { updatedAt: now });
    return { kind: 'updated', campaign: copy(c) };
  }

  async changeState(
    _tx: Tx,
    organizationId: string,
    id: string,
    from: CampaignState[],
    to: CampaignState,
    now: Date,
    pausedReason: string | null = null,
  ): Promise<Campaign | null> {
    const c = this.campaigns.get(id);
    if (!c || c.organizationId !== organizationId || !from.includes(c.state)) return null;
    Object.assign(c, {
      state: to,
      stateChangedAt: now,
      updatedAt: now,
      pausedReason: to === 'paused' ? pausedReason : null,
    });
    return copy(c);
  }

  async lockedState(_tx: Tx, id: string): Promise<CampaignState | null> {
    return this.campaigns.get(id)?.state ?? null;
  }

  async lockedStates(_tx: Tx, ids: string[]): Promise<Map<string, CampaignState>> {
    const found = ids.flatMap((id) => this.campaigns.get(id) ?? []);
    return new Map(found.map((c) => [c.id, c.state]));
  }

  async pausedIds(): Promise<string[]> {
    return [...this.campaigns.values()].filter((c) => c.state === 'paused').map((c) => c.id);
  }

  async setWebhookSecret(organizationId: string, id: string, secret: string, now: Date) {
    const c = this.campaigns.get(id);
    if (!c || c.organizationId !== organizationId) return null;
    Object.assign(c, { webhookSecret: secret, updatedAt: now });
    return copy(c);
  }
}
