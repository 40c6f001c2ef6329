import { CallFinishedEvent, CallFinishedOutbox } from '../common/events/call-finished';
import { NotFoundError } from '../common/errors/domain-errors';
import { Tx } from '../common/persistence/unit-of-work';
import {
  CallingCampaigns,
  NumberBlacklist,
} from '../modules/calling/application/ports/calling-campaigns';
import { Campaign } from '../modules/campaign/domain/campaign';

export class RecordingCallFinishedOutbox extends CallFinishedOutbox {
  readonly events: CallFinishedEvent[] = [];
  async record(_tx: Tx, event: CallFinishedEvent): Promise<void> {
    this.events.push(structuredClone(event));
  }
}

export class InMemoryCallingCampaigns extends CallingCampaigns {
  private readonly campaigns = new Map<string, Campaign>();
  put(...campaigns: Campaign[]): void {
    for (const c of campaigns) this.campaigns.set(c.id, structuredClone(c));
  }
  async get(organizationId: string, campaignId: string): Promise<Campaign> {
    const c = this.campaigns.get(campaignId);
    if (!c || c.organizationId !== organizationId)
      throw new NotFoundError(`Campaign ${campaignId} not found`);
    return structuredClone(c);
  }
  async findById(campaignId: string): Promise<Campaign | null> {
    const c = this.campaigns.get(campaignId);
    return c ? structuredClone(c) : null;
  }
}

export class InMemoryNumberBlacklist extends NumberBlacklist {
  private readonly lists = new Map<string, Set<string>>();
  add(blacklistId: string, ...numbers: string[]): void {
    const set = this.lists.get(blacklistId) ?? new Set();
    numbers.forEach((n) => set.add(n));
    this.lists.set(blacklistId, set);
  }
  async findBlacklisted(blacklistIds: string[], phoneNumbers: string[]): Promise<Set<string>> {
    return new Set(
      phoneNumbers.filter((n) => blacklistIds.some((id) => this.lists.get(id)?.has(n))),
    );
  }
}
