import { Clock } from '../common/clock/clock';
import { NotFoundError } from '../common/errors/domain-errors';
import { Tx } from '../common/persistence/unit-of-work';
import { Campaign, CAMPAIGN_DEFAULTS, CampaignStep } from '../modules/campaign/domain/campaign';
import { CampaignDirectory } from '../modules/step/application/ports/campaign-directory';
import { CallScheduler, ScheduledCall } from '../modules/target/application/ports/call-scheduler';
import type { Target } from '../modules/target/domain/target';

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

/** A clock that only moves when told to. */
export class SteppingClock extends Clock {
  constructor(private current = new Date('2026-01-05T15:00:00.000Z')) {
    super();
  }
  now(): Date {
    return new Date(this.current);
  }
  set(at: Date): void {
    this.current = new Date(at);
  }
}

export function stepTestCampaign(
  overrides: Partial<Campaign> & { steps?: CampaignStep[] } = {},
): Campaign {
  const now = new Date('2026-01-01T00:00:00.000Z');
  return {
    id: '00000000-0000-4000-8000-00000000c001',
    organizationId: '00000000-0000-4000-8000-00000000a001',
    name: 'Steps',
    type: 'patient',
    callerId: null,
    maxAttempts: CAMPAIGN_DEFAULTS.maxAttempts,
    retryDelayMinutes: CAMPAIGN_DEFAULTS.retryDelayMinutes,
    maxConcurrentCalls: CAMPAIGN_DEFAULTS.maxConcurrentCalls,
    callingWindow: null,
    steps: [],
    entryStep: null,
    blacklistIds: [],
    webhookUrl: null,
    webhookSecret: 'whsec_dGVzdA==',
    createdAt: now,
    updatedAt: now,
    ...overrides,
  };
}

export function stepTestTarget(overrides: Partial<Target> & Pick<Target, 'id'>): Target {
  const now = new Date('2026-01-01T00:00:00.000Z');
  return {
    organizationId: '00000000-0000-4000-8000-00000000a001',
    campaignId: '00000000-0000-4000-8000-00000000c001',
    externalId: null,
    phoneNumber: '+15550100',
    phoneOperatingHours: null,
    fallbackPhoneNumber: null,
    fallbackOperatingHours: null,
    patient: null,
    preCallData: null,
    inputData: {},
    outputData: {},
    status: 'Pending',
    currentStep: null,
    resolution: null,
    category: null,
    subcategory: null,
    outcome: null,
    callLogIds: null,
    lastCallDate: null,
    executionSeconds: null,
    faxLinks: null,
    payorApiData: null,
    preCallEhrIds: null,
    attempts: 0,
    retries: null,
    scheduledTime: null,
    callStartedAt: null,
    categorization: null,
    statistics: null,
    createdAt: now,
    updatedAt: now,
    ...overrides,
  };
}
