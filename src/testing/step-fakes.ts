import { NotFoundError } from '../common/errors/domain-errors';
import { Tx } from '../common/persistence/unit-of-work';
import { Campaign } from '../modules/campaign/domain/campaign';
import { CampaignDirectory } from '../modules/step/application/ports/campaign-directory';
import { CallScheduler, ScheduledCall } from '../modules/target/application/ports/call-scheduler';

/** Campaigns by id, scoped by organization like the campaign service (unknown or foreign: 404). */
export class InMemoryCampaignDirectory extends CampaignDirectory {
  private readonly campaigns = new Map<string, Campaign>();

  put(...campaigns: Campaign[]): void {
    for (const c of campaigns) this.campaigns.set(c.id, c);
  }

  async get(organizationId: string, campaignId: string): Promise<Campaign> {
    const campaign = this.campaigns.get(campaignId);
    if (!campaign || campaign.organizationId !== organizationId)
      throw new NotFoundError('Campaign not found');
    return campaign;
  }
}

/** Records the dispatches asked for; `failWith` makes the next call throw (to test rollback). */
export class RecordingCallScheduler extends CallScheduler {
  readonly scheduled: ScheduledCall[] = [];
  failWith: Error | null = null;

  async scheduleCalls(_tx: Tx, calls: ScheduledCall[]): Promise<void> {
    if (this.failWith) throw this.failWith;
    this.scheduled.push(...calls);
  }
}
