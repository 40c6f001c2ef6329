import { Injectable } from '@nestjs/common';
import { Clock } from '../../../common/clock/clock.js';
import { RetentionCampaigns } from './ports/retention-campaigns.js';
import {
  KEEP_EVERYTHING,
  type RetentionPolicy,
  type ScopedPolicy,
} from '../domain/retention-policy.js';
import type { RetentionRun } from '../domain/retention-run.js';
import { RetentionStore } from './ports/retention.store.js';

/** The organization's retention policy, campaigns' own, and the record of runs. */
@Injectable()
export class RetentionService {
  constructor(
    private readonly store: RetentionStore,
    private readonly campaigns: RetentionCampaigns,
    private readonly clock: Clock,
  ) {}

  /** The organization's policy (keep everything until set) and the campaigns with their own. */
  async policies(organizationId: string): Promise<{
    policy: RetentionPolicy;
    campaigns: { campaignId: string; policy: RetentionPolicy }[];
  }> {
    const all = await this.store.policies(organizationId);
    return {
      policy: organizationPolicy(all),
      campaigns: all.flatMap((p) =>
        p.campaignId === null ? [] : [{ campaignId: p.campaignId, policy: p.policy }],
      ),
    };
  }

  async setPolicy(organizationId: string, policy: RetentionPolicy): Promise<void> {
    await this.store.savePolicy(organizationId, null, policy, this.clock.now());
  }

  /** The campaign's own policy, or the organization's when it has none (`own` says which). */
  async campaignPolicy(
    organizationId: string,
    campaignId: string,
  ): Promise<{ policy: RetentionPolicy; own: boolean }> {
    await this.campaigns.requireCampaign(organizationId, campaignId);
    const all = await this.store.policies(organizationId);
    const own = all.find((p) => p.campaignId === campaignId);
    return own
      ? { policy: own.policy, own: true }
      : { policy: organizationPolicy(all), own: false };
  }

  async setCampaignPolicy(
    organizationId: string,
    campaignId: string,
    policy: RetentionPolicy,
  ): Promise<void> {
    await this.campaigns.requireCampaign(organizationId, campaignId);
    await this.store.savePolicy(organizationId, campaignId, policy, this.clock.now());
  }

  async clearCampaignPolicy(organizationId: string, campaignId: string): Promise<void> {
    await this.campaigns.requireCampaign(organizationId, campaignId);
    await this.store.deleteCampaignPolicy(organizationId, campaignId);
  }

  runs(organizationId: string, skip: number, limit: number) {
    return this.store.runs(organizationId, skip, limit);
  }
}

/** The organization's own policy among `all`: keep everything until one is set. */
const organizationPolicy = (all: ScopedPolicy[]): RetentionPolicy =>
  all.find((p) => p.campaignId === null)?.policy ?? KEEP_EVERYTHING;

export type { RetentionRun };
