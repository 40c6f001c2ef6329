import { NotFoundError } from '../common/errors/domain-errors.js';
import { CampaignReader } from '../modules/campaign/application/ports/campaign-reader.js';
import type { Campaign, CampaignState } from '../modules/campaign/domain/campaign.js';
import type { Tx } from '../common/persistence/unit-of-work.js';

/** Campaigns by id, scoped by organization like CampaignService.get (unknown or foreign: NotFoundError). */
export class InMemoryCampaignReader extends CampaignReader {
  private readonly campaigns = new Map<string, Campaign>();

  put(...campaigns: Campaign[]): void {
    for (const c of campaigns) this.campaigns.set(c.id, structuredClone(c));
  }

  async get(organizationId: string, campaignId: string): Promise<Campaign> {
    const campaign = this.campaigns.get(campaignId);
    if (!campaign || campaign.organizationId !== organizationId) {
      throw new NotFoundError(`Campaign ${campaignId} not found`);
    }
    return structuredClone(campaign);
  }

  async findById(campaignId: string): Promise<Campaign | null> {
    const campaign = this.campaigns.get(campaignId);
    return campaign ? structuredClone(campaign) : null;
  }

  findRecent(campaignId: string): Promise<Campaign | null> {
    return this.findById(campaignId);
  }

  async lockedState(_tx: Tx, campaignId: string): Promise<CampaignState | null> {
    return this.campaigns.get(campaignId)?.state ?? null;
  }

  async lockedStates(_tx: Tx, campaignIds: string[]): Promise<Map<string, CampaignState>> {
    const found = campaignIds.flatMap((id) => this.campaigns.get(id) ?? []);
    return new Map(found.map((c) => [c.id, c.state]));
  }

  async pausedIds(): Promise<string[]> {
    return [...this.campaigns.values()].filter((c) => c.state === 'paused').map((c) => c.id);
  }
}
